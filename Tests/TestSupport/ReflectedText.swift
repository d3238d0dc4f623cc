/// Everything reflection prints of `value`: `dump(_:)`, `String(reflecting:)`, `String(describing:)`,
/// and the description of every child `Mirror` reaches, however deep (as a reflection-based logger
/// or crash reporter would walk it).
///
/// ```swift
/// #expect(!reflectedText(of: credentials).contains(password))
/// ```
/// - Parameters:
///   - value: What to reflect.
///   - maximumDepth: How deep the `Mirror` walk goes; objects already seen are not walked again.
/// - Returns: The texts, one after the other.
public func reflectedText(of value: Any, maximumDepth: Int = 24) -> String {
    var text = ""
    dump(value, to: &text)
    text += String(reflecting: value) + "\n" + String(describing: value) + "\n"
    var seen = Set<ObjectIdentifier>()
    walk(Mirror(reflecting: value), depth: maximumDepth, seen: &seen, into: &text)
    return text
}

private func walk(_ mirror: Mirror, depth: Int, seen: inout Set<ObjectIdentifier>, into text: inout String) {
    guard depth > 0 else { return }
    var current: Mirror? = mirror
    while let level = current {
        for child in level.children {
            text += "\(child.label ?? "_"): \(String(reflecting: child.value))\n"
            if type(of: child.value) is AnyClass {
                guard seen.insert(ObjectIdentifier(child.value as AnyObject)).inserted else { continue }
            }
            walk(Mirror(reflecting: child.value), depth: depth - 1, seen: &seen, into: &text)
        }
        current = level.superclassMirror
    }
}
