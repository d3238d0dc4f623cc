import HTTPTypes

extension HTTPFields {
    /// The value of the fields named `name`, as `self[name]` reads it (repeated fields joined with
    /// `", "`, cookies with `"; "`), in one pass over the fields.
    ///
    /// Every response is asked for a few fields (its length, coding and media type); the
    /// subscript walks the fields twice and joins through a lazy sequence even for the usual one
    /// field, which costs more than the rest of reading a small response's head.
    /// - Parameter name: The field's name.
    /// - Returns: The value, or `nil` when no field has that name.
    package func value(of name: HTTPField.Name) -> String? {
        var value: String?
        for index in indices where self[index].name == name {
            guard let earlier = value else {
                value = self[index].value
                continue
            }
            value = earlier + (name == .cookie ? "; " : ", ") + self[index].value
        }
        return value
    }
}
