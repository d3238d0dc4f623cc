import Foundation

/// The ``TypeShape`` of every type asked about so far in the process.
///
/// Asking the runtime whether a type conforms to a protocol costs thousands of instructions, tens
/// of thousands when it does not: each decoder keeps its own answers in a ``TypeTable``, and its
/// first question about a type comes here instead of to the runtime. What it keeps are facts that
/// never change for a type (as the runtime's own conformance cache does), so sharing them between
/// decoders changes no decoder's behaviour; it grows with the types a program decodes, not with its
/// input.
final class KnownTypeShapes: @unchecked Sendable {
    // `@unchecked`: `shapes` is read and written only while holding `lock`.
    /// The one set of answers.
    static let shared = KnownTypeShapes()

    private let lock = NSLock()
    private var shapes: [ObjectIdentifier: TypeShape] = [:]

    /// The shape of `type`, from the runtime the first time in the process.
    func shape(of type: Any.Type) -> TypeShape {
        let identity = ObjectIdentifier(type)
        lock.lock()
        let known = shapes[identity]
        lock.unlock()
        if let known { return known }
        let shape = TypeShape(of: type)
        lock.lock()
        shapes[identity] = shape
        lock.unlock()
        return shape
    }
}
