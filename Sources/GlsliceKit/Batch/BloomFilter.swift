import Foundation

/// A fixed-size Bloom filter of 64-bit keys: eight probes by double hashing.
struct BloomFilter {
    private var words: [UInt64]
    private let mask: UInt64

    /// `bits` is rounded up to a power of two.
    init(bits: Int) {
        var size = 64
        while size < bits { size <<= 1 }
        words = [UInt64](repeating: 0, count: size / 64)
        mask = UInt64(size - 1)
    }

    /// Adds `key`; true when it may have been added before (all its bits were set).
    mutating func insert(_ key: Int) -> Bool {
        // splitmix64's finaliser spreads Hasher's value over both halves.
        var z = UInt64(bitPattern: Int64(key)) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let h1 = z, h2 = (z >> 32) | 1
        var seen = true
        for i in 0..<UInt64(8) {
            let bit = (h1 &+ i &* h2) & mask
            let word = Int(bit >> 6), flag = UInt64(1) << (bit & 63)
            if words[word] & flag == 0 { seen = false; words[word] |= flag }
        }
        return seen
    }
}
