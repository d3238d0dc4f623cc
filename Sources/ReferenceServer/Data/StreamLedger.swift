/// What the streaming routes saw: connections opened, the `Last-Event-ID` each one sent, and the
/// connections the client closed while the server was still writing.
actor StreamLedger {
    private(set) var lastEventIDs: [String?] = []
    private(set) var closedByClient = 0

    func opened(lastEventID: String?) { lastEventIDs.append(lastEventID) }
    func clientClosed() { closedByClient += 1 }
}
