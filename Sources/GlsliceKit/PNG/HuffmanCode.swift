/// Huffman code lengths from symbol counts, no longer than a limit, and
/// deflate's canonical codes for them (RFC 1951 §3.2.2), bit-reversed because
/// deflate writes codes from their first bit into the low bits of each byte.
enum HuffmanCode {
    /// Lengths for `counts` (0 for an unused symbol), each at most `limit`:
    /// Huffman's merge, then, where it went deeper than `limit`, leaves moved up
    /// as JPEG's Annex K.3 does and the lengths handed out again, shortest to
    /// the most frequent. One used symbol gets length 1.
    static func lengths(_ counts: [Int], limit: Int) -> [Int] {
        var lengths = [Int](repeating: 0, count: counts.count)
        lengths.withUnsafeMutableBufferPointer { lengths in
            // Scratch in temporary buffers, not arrays: a small block's code was mostly allocations.
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(1, counts.count)) { keys in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, 6 * counts.count)) { scratch in
                    fill(lengths, counts: counts, limit: limit, keys: keys, scratch: scratch)
                }
            }
        }
        return lengths
    }

    private static func fill(_ lengths: UnsafeMutableBufferPointer<Int>, counts: [Int], limit: Int,
                             keys: UnsafeMutableBufferPointer<UInt64>, scratch: UnsafeMutableBufferPointer<Int>) {
        // By count, then symbol: one integer key each (a sort with a comparing closure was most of a small block's code).
        var n = 0
        for (symbol, count) in counts.enumerated() where count > 0 {
            keys[n] = UInt64(count) << 16 | UInt64(symbol)
            n += 1
        }
        if n == 1 { lengths[Int(keys[0] & 0xFFFF)] = 1 }
        guard n > 1 else { return }
        heapSort(keys.baseAddress!, count: n)
        // Merge the two lightest until one tree is left; a parent's index is above its children's.
        // Two queues, the leaves by weight and the merged nodes as made (their weights never
        // fall), so each merge takes the lighter head, a leaf on a tie.
        let nodes = 2 * n - 1
        let parent = scratch.baseAddress!, weight = parent + nodes, depth = weight + nodes
        for i in 0..<n { weight[i] = Int(keys[i] >> 16) }
        var leaf = 0, merged = n, node = n
        func lightest() -> Int {
            if leaf < n && (merged == node || weight[leaf] <= weight[merged]) {
                leaf += 1
                return leaf - 1
            }
            merged += 1
            return merged - 1
        }
        while node < nodes {
            let a = lightest(), b = lightest()
            parent[a] = node
            parent[b] = node
            weight[node] = weight[a] + weight[b]
            node += 1
        }
        depth[nodes - 1] = 0
        for i in stride(from: nodes - 2, through: 0, by: -1) { depth[i] = depth[parent[i]] + 1 }
        var longest = 0
        for i in 0..<n {
            lengths[Int(keys[i] & 0xFFFF)] = depth[i]
            longest = max(longest, depth[i])
        }
        guard longest > limit else { return }
        var perLength = [Int](repeating: 0, count: longest + 1)
        for i in 0..<n { perLength[depth[i]] += 1 }
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
        var at = n - 1  // most frequent first
        for length in 1...limit {
            for _ in 0..<perLength[length] {
                lengths[Int(keys[at] & 0xFFFF)] = length
                at -= 1
            }
        }
    }

    /// Sorts `count` keys in place, ascending, with no allocation (the standard library's sort
    /// borrows a buffer: a tenth of a small block's code). The keys are distinct, so any sort
    /// gives the same order.
    private static func heapSort(_ keys: UnsafeMutablePointer<UInt64>, count: Int) {
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while 2 * root + 1 < end {
                var child = 2 * root + 1
                if child + 1 < end, keys[child] < keys[child + 1] { child += 1 }
                guard keys[root] < keys[child] else { return }
                (keys[root], keys[child]) = (keys[child], keys[root])
                root = child
            }
        }
        for start in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(start, count) }
        for end in stride(from: count - 1, to: 0, by: -1) {
            (keys[0], keys[end]) = (keys[end], keys[0])
            siftDown(0, end)
        }
    }

    /// The canonical code of each symbol, bit-reversed (0 for an unused symbol).
    static func codes(_ lengths: [Int]) -> [UInt32] {
        var codes = [UInt32](repeating: 0, count: lengths.count)
        // The per-length counts and next codes on the stack (two arrays a call were a block's allocations).
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 32) { scratch in
            guard let perLength = scratch.baseAddress else { return }
            let next = perLength + 16
            perLength.initialize(repeating: 0, count: 32)
            lengths.withUnsafeBufferPointer { lengths in
                for length in lengths where length > 0 { perLength[length] += 1 }
                var code: UInt32 = 0
                for bits in 1..<16 {
                    code = (code + perLength[bits - 1]) << 1
                    next[bits] = code
                }
                codes.withUnsafeMutableBufferPointer { codes in
                    for (symbol, length) in lengths.enumerated() where length > 0 {
                        codes[symbol] = reversed16(next[length]) >> UInt32(16 - length)
                        next[length] += 1
                    }
                }
            }
        }
        return codes
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
