/// Huffman code lengths from symbol counts, no longer than a limit, and
/// deflate's canonical codes for them (RFC 1951 §3.2.2), bit-reversed because
/// deflate writes codes from their first bit into the low bits of each byte.
enum HuffmanCode {
    /// Lengths for `counts` (0 for an unused symbol), each at most `limit`:
    /// Huffman's merge, then, where it went deeper than `limit`, leaves moved up
    /// as JPEG's Annex K.3 does and the lengths handed out again, shortest to
    /// the most frequent. One used symbol gets length 1.
    static func lengths(_ counts: [Int], limit: Int) -> [Int] {
        // By count, then symbol: one integer key each (a sort with a comparing closure was most of a small block's code).
        var keys: [UInt64] = []
        keys.reserveCapacity(counts.count)
        for (symbol, count) in counts.enumerated() where count > 0 { keys.append(UInt64(count) << 16 | UInt64(symbol)) }
        keys.sort()
        let used = keys.map { Int($0 & 0xFFFF) }
        var lengths = [Int](repeating: 0, count: counts.count)
        if used.count == 1 { lengths[used[0]] = 1 }
        guard used.count > 1 else { return lengths }
        // Merge the two lightest until one tree is left; a parent's index is above its children's.
        // Two queues, the leaves by weight and the merged nodes as made (their weights never
        // fall), so each merge takes the lighter head, a leaf on a tie.
        var parent = [Int](repeating: -1, count: 2 * used.count - 1)
        var weight = used.map { counts[$0] } + [Int](repeating: 0, count: used.count - 1)
        var leaf = 0, merged = used.count, node = used.count
        func lightest() -> Int {
            if leaf < used.count && (merged == node || weight[leaf] <= weight[merged]) {
                leaf += 1
                return leaf - 1
            }
            merged += 1
            return merged - 1
        }
        while node < 2 * used.count - 1 {
            let a = lightest(), b = lightest()
            parent[a] = node
            parent[b] = node
            weight[node] = weight[a] + weight[b]
            node += 1
        }
        var depth = [Int](repeating: 0, count: node)
        for n in stride(from: node - 2, through: 0, by: -1) { depth[n] = depth[parent[n]] + 1 }
        for (i, symbol) in used.enumerated() { lengths[symbol] = depth[i] }
        guard let longest = lengths.max(), longest > limit else { return lengths }
        var perLength = [Int](repeating: 0, count: longest + 1)
        for length in lengths where length > 0 { perLength[length] += 1 }
        var deepest = longest
        while deepest > limit {
            while perLength[deepest] > 0 {
                var j = deepest - 2
                while perLength[j] == 0 { j -= 1 }
                perLength[deepest] -= 2
                perLength[deepest - 1] += 1
                perLength[j + 1] += 2
                perLength[j] -= 1
            }
            deepest -= 1
        }
        var at = used.count - 1  // most frequent first
        for length in 1...limit {
            for _ in 0..<perLength[length] {
                lengths[used[at]] = length
                at -= 1
            }
        }
        return lengths
    }

    /// The canonical code of each symbol, bit-reversed (0 for an unused symbol).
    static func codes(_ lengths: [Int]) -> [UInt32] {
        var perLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { perLength[length] += 1 }
        var next = [UInt32](repeating: 0, count: 16), code: UInt32 = 0
        for bits in 1..<16 {
            code = (code + UInt32(perLength[bits - 1])) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = next[length]
            next[length] += 1
            return reversed16(value) >> UInt32(16 - length)
        }
    }

    /// The low 16 bits of `value` in reverse order: halves, then quarters, eighths and pairs swapped.
    private static func reversed16(_ value: UInt32) -> UInt32 {
        var x = value & 0xFFFF
        x = (x & 0x5555) << 1 | (x >> 1) & 0x5555
        x = (x & 0x3333) << 2 | (x >> 2) & 0x3333
        x = (x & 0x0F0F) << 4 | (x >> 4) & 0x0F0F
        return (x & 0x00FF) << 8 | x >> 8
    }
}
