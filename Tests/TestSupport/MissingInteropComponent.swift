/// A third-party server the interop suite needs is not installed: what a launcher throws, so that
/// the test fails naming it (its ``InteropComponent`` and the remedy).
public struct MissingInteropComponent: Error, CustomStringConvertible, Sendable {
    /// What is missing.
    public let component: InteropComponent
    /// Which files are missing, and how to install them.
    public let reason: String

    /// A sentence naming what is missing and how to install it.
    public var description: String { reason }
}
