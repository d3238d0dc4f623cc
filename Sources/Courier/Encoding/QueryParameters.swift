/// An ordered list of named parameters for a URL query or a form-URL-encoded body.
///
/// Parameters keep the order you wrote them in, so the same endpoint always produces the same
/// URL (cache keys and recorded fixtures stay stable). Write them as a dictionary literal:
///
/// ```swift
/// let query: QueryParameters = ["user_id": user.id, "page": 2, "filter": ["status": "active"]]
/// ```
///
/// Setting a name that is already present replaces its value in place.
public struct QueryParameters: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The parameters, in order.
    public private(set) var items: [(name: String, value: QueryValue)]

    /// Creates parameters from a literal, keeping its order.
    public init(dictionaryLiteral elements: (String, any QueryRepresentable)...) {
        items = []
        for (name, value) in elements { set(name, value.queryValue) }
    }

    /// Creates parameters from name–value pairs, keeping their order.
    public init(_ items: [(name: String, value: QueryValue)] = []) {
        self.items = []
        for item in items { set(item.name, item.value) }
    }

    /// `true` when there is no parameter.
    public var isEmpty: Bool { items.isEmpty }

    /// The value for `name`; setting `nil` removes the parameter.
    ///
    /// ```swift
    /// configuration.commonParameters.query["api_key"] = apiKey
    /// ```
    public subscript(name: String) -> (any QueryRepresentable)? {
        get { value(named: name) }
        set { set(name, newValue?.queryValue) }
    }

    /// The value for `name`, if present.
    public func value(named name: String) -> QueryValue? {
        items.first(where: { $0.name == name })?.value
    }

    /// Sets, replaces in place, or (with `nil`) removes the parameter `name`.
    public mutating func set(_ name: String, _ value: QueryValue?) {
        let index = items.firstIndex(where: { $0.name == name })
        switch (index, value) {
        case (let index?, let value?): items[index].value = value
        case (let index?, nil): items.remove(at: index)
        case (nil, let value?): items.append((name, value))
        case (nil, nil): break
        }
    }

    /// Adds every parameter of `other` whose name is not already here; existing values win.
    public mutating func addMissing(from other: QueryParameters) {
        for item in other.items where value(named: item.name) == nil { items.append(item) }
    }

    /// Compares names, values and order.
    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.items.elementsEqual(rhs.items) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Hashes names, values and order.
    public func hash(into hasher: inout Hasher) {
        for item in items {
            hasher.combine(item.name)
            hasher.combine(item.value)
        }
    }
}
