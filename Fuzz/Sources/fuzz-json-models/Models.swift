import Foundation

/// A record as an API sends one: every kind of member, optional, nested and repeated.
struct Record: Decodable {
    enum Kind: String, Decodable { case movie, show }

    var id: Int
    var title: String?
    var createdAt: Date?
    var payload: Data?
    var rating: Double?
    var votes: UInt32?
    var kind: Kind?
    var tags: [String]?
    var children: [Record]?
    var byName: [String: Record]?
    var link: URL?
    var amount: Decimal?
}

/// Every scalar type the decoder reads on its own path.
struct Scalars: Decodable {
    var int8: Int8?
    var int16: Int16?
    var int32: Int32?
    var int64: Int64?
    var uint: UInt?
    var uint8: UInt8?
    var uint64: UInt64?
    var float: Float?
    var double: Double?
    var bool: Bool?
    var string: String?
    var date: Date?
    var data: Data?
}

/// Keys asked for by a hand-written `init(from:)`, in an order the synthesized one never uses.
struct Keyed: Decodable {
    enum CodingKeys: String, CodingKey { case a, bb, ccc, dddd, eeeeeeee, longer_than_eight }
    var values: [Int?]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        values = try [CodingKeys.longer_than_eight, .a, .eeeeeeee, .bb, .dddd, .ccc].map { key in
            try container.decodeIfPresent(Int.self, forKey: key)
        }
        var nested = try? container.nestedUnkeyedContainer(forKey: .a)
        while let unkeyed = nested, !unkeyed.isAtEnd {
            _ = try nested?.decode(Double.self)
        }
    }
}
