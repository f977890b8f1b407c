/// A random source that gives the same numbers for the same seed on every platform: SplitMix64, in integer
/// arithmetic only, so a seeded body is the same bytes on Linux and macOS.
package struct SeededRandom: Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    /// A seed derived from this one and a word (an operation's id, a property's name), so each part of a body
    /// draws from a stream of its own and adding a property does not change the others.
    package func derived(_ word: String) -> SeededRandom {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in word.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        var copy = SeededRandom(seed: state ^ hash)
        _ = copy.next()
        return copy
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `range`, drawn without modulo bias worth minding at these sizes.
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound)) &+ 1
        guard span != 0 else { return Int(truncatingIfNeeded: next()) }
        return range.lowerBound &+ Int(truncatingIfNeeded: next() % span)
    }

    /// A fraction in [0, 1), from 53 random bits.
    package mutating func fraction() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    package mutating func chance(_ probability: Double) -> Bool {
        fraction() < probability
    }

    package mutating func pick<T>(_ items: [T]) -> T {
        items[int(in: 0...(items.count - 1))]
    }
}
