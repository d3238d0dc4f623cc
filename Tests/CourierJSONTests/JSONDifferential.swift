import Courier
import CourierJSON
import Foundation
import Testing

/// Decodes with both `UTF8JSONDecoder` and `JSONDecoder` and says whether they agree: the same
/// value, or the same `DecodingError` case with the same coding path.
struct JSONDifferential {
    /// How an outcome compares: the value's description, or the error's case and path.
    enum Outcome: Equatable, CustomStringConvertible {
        case value(String)
        case error(String, path: [String])

        var description: String {
            switch self {
            case .value(let value): "value \(value)"
            case .error(let kind, let path): "\(kind) at \(path.joined(separator: "."))"
            }
        }
    }

    var configure: @Sendable (JSONDecoder) -> Void = { _ in }
    /// Whether a `valueNotFound` or `typeMismatch` must also name the same type.
    var comparesTypes = false

    func outcomes<T: Decodable & Equatable>(_ type: T.Type, _ data: Data) -> (ours: Outcome, foundation: Outcome, equalValues: Bool) {
        let foundation = JSONDecoder()
        configure(foundation)
        let ours = UTF8JSONDecoder(settingsOf: foundation)
        let a = Result { try ours.decode(type, from: data) }
        let b = Result { try foundation.decode(type, from: data) }
        var equal = false
        if case .success(let x) = a, case .success(let y) = b {
            equal = x == y || String(describing: x) == String(describing: y)  // NaN is not equal to itself
        }
        return (Self.outcome(a, typed: comparesTypes), Self.outcome(b, typed: comparesTypes), equal)
    }

    /// Records an issue unless both decoders agree on `data`.
    func expectAgreement<T: Decodable & Equatable>(_ type: T.Type, _ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let (ours, foundation, equal) = outcomes(type, data)
        switch (ours, foundation) {
        case (.value, .value):
            #expect(equal, "different values for \(String(decoding: data, as: UTF8.self)): \(ours) vs \(foundation)", sourceLocation: sourceLocation)
        case (.error("dataCorrupted", _), .error("dataCorrupted", path: [])):
            // JSONDecoder drops the coding path of some value errors (a number that does not fit
            // its type, a date that is not ISO 8601); UTF8JSONDecoder keeps it. Same case.
            break
        default:
            #expect(ours == foundation, "for \(String(decoding: data.prefix(400), as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }

    static func outcome<T>(_ result: Result<T, any Error>, typed: Bool = false) -> Outcome {
        switch result {
        case .success(let value):
            return .value(String(describing: value))
        case .failure(let error as DecodingError):
            switch error {
            case .keyNotFound(let key, let context): return .error("keyNotFound(\(key.stringValue))", path: path(context))
            case .typeMismatch(let type, let context): return .error(typed ? "typeMismatch(\(type))" : "typeMismatch", path: path(context))
            case .valueNotFound(let type, let context): return .error(typed ? "valueNotFound(\(type))" : "valueNotFound", path: path(context))
            case .dataCorrupted(let context): return .error("dataCorrupted", path: path(context))
            @unknown default: return .error("unknown", path: [])
            }
        case .failure(let error):
            return .error("not a DecodingError: \(error)", path: [])
        }
    }

    static func path(_ context: DecodingError.Context) -> [String] {
        context.codingPath.map { key in key.intValue.map(String.init) ?? key.stringValue }
    }
}
