extension String {
    /// The string of `bytes`, which are known to be valid UTF-8 (checked by ``JSONTape``'s
    /// parse): where the standard library can take them without checking them again, it does.
    init(validatedUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            self.init(copying: UTF8Span(unchecked: bytes.span))
        } else {
            self.init(decoding: bytes, as: UTF8.self)
        }
    }
}
