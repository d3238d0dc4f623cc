import CourierJSON
import Foundation

/// Every decoding strategy `UTF8JSONDecoder` accepts, with the custom ones written as apps write them.
enum Strategies {
    static let dates: [JSONDecoder.DateDecodingStrategy] = [
        .deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601,
        // `.formatted` itself traps inside Foundation on Linux for some texts (see
        // `safelyFormatted`), so the target reads formatted dates the way Courier recommends.
        .safelyFormatted(formatter),
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            return Date(timeIntervalSince1970: try container.decode(Double.self))
        },
    ]

    static let keys: [JSONDecoder.KeyDecodingStrategy] = [
        .useDefaultKeys, .convertFromSnakeCase,
        .custom { path in AnyKey(stringValue: path.last.map { $0.stringValue.lowercased() } ?? "") },
    ]

    static let data: [JSONDecoder.DataDecodingStrategy] = [
        .base64, .deferredToData,
        .custom { decoder in Data(try decoder.singleValueContainer().decode(String.self).utf8) },
    ]

    static let floats: [JSONDecoder.NonConformingFloatDecodingStrategy] = [
        .throw, .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN"),
    ]

    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSZ"
        return formatter
    }()
}

/// A key made from any string, for the custom key strategy.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { Int(stringValue) }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}
