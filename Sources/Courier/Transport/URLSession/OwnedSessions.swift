import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sessions a ``SessionTransport`` made for itself, invalidated when the last copy of the
/// transport goes: a session keeps its delegate, its delegate queue and its connections until it
/// is invalidated. Tasks still running finish first (`finishTasksAndInvalidate()`).
///
/// Never holds a session the app gave, nor `URLSession.courierShared`, which live on.
final class OwnedSessions: Sendable {
    private let sessions: [URLSession]

    /// Takes charge of `sessions`.
    init(_ sessions: [URLSession]) {
        self.sessions = sessions
    }

    deinit {
        for session in sessions { session.finishTasksAndInvalidate() }
    }
}
