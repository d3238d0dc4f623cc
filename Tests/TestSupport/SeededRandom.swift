/// A seeded source of randomness (SplitMix64): a test that draws from it can be rebuilt from its
/// seed.
public struct SeededRandom: RandomNumberGenerator {
    /// The generator's state; the seed to start with.
    public var state: UInt64

    /// A generator starting from `seed`.
    /// - Parameter seed: Any value; the same seed gives the same numbers.
    public init(state seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    /// - Returns: The bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
