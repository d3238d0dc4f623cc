/// A seeded source of randomness (SplitMix64): the corpus payloads are the same bytes on every
/// machine and in every run, so their figures compare across builds.
struct CorpusRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One of `choices`.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &self)]
    }

    /// `words` words from a mixed English and Japanese vocabulary, as tweets and descriptions have.
    mutating func sentence(_ words: Int) -> String {
        let vocabulary = [
            "the", "a", "swift", "server", "today", "great", "news", "release", "@user", "#swiftlang", "http", "json",
            "メディア", "東京", "今日", "ありがとう", "です", "ます", "café", "naïve", "décor", "😀", "🎉", "📦",
        ]
        return (0..<words).map { _ in pick(vocabulary) }.joined(separator: " ")
    }
}
