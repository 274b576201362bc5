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

    /// A sort key is a count above a symbol in its low 9 bits (every alphabet has under 512):
    /// one sort pass fewer than 16 bits would take.
    private static let symbolBits: UInt64 = 9, symbolMask: UInt64 = 511

    private static func fill(_ lengths: UnsafeMutableBufferPointer<Int>, counts: [Int], limit: Int,
                             keys: UnsafeMutableBufferPointer<UInt64>, scratch: UnsafeMutableBufferPointer<Int>) {
        // By count, then symbol: one integer key each (a sort with a comparing closure was most of a small block's code).
        var n = 0
        for (symbol, count) in counts.enumerated() where count > 0 {
            keys[n] = UInt64(count) << symbolBits | UInt64(symbol)
            n += 1
        }
        if n == 1 { lengths[Int(keys[0] & symbolMask)] = 1 }
        guard n > 1 else { return }
        radixSort(keys.baseAddress!, count: n)
        // Merge the two lightest until one tree is left; a parent's index is above its children's.
        // Two queues, the leaves by weight and the merged nodes as made (their weights never
        // fall), so each merge takes the lighter head, a leaf on a tie.
        let nodes = 2 * n - 1
        let parent = scratch.baseAddress!, weight = parent + nodes, depth = weight + nodes
        for i in 0..<n { weight[i] = Int(keys[i] >> symbolBits) }
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
            lengths[Int(keys[i] & symbolMask)] = depth[i]
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
                lengths[Int(keys[at] & symbolMask)] = length
                at -= 1
            }
        }
    }

    /// Sorts `count` distinct keys in place, ascending: least significant byte first, one pass for
    /// each byte in which they differ, through a second buffer on the stack (no allocation: the
    /// standard library's sort borrows a buffer). A heap sort's unpredictable branches had made it
    /// 40% of a block's code. The keys are distinct, so any sort gives the same order.
    private static func radixSort(_ keys: UnsafeMutablePointer<UInt64>, count: Int) {
        var differ: UInt64 = 0
        for i in 0..<count { differ |= keys[i] ^ keys[0] }
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { spare in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { bucket in
                guard var to = spare.baseAddress, let starts = bucket.baseAddress else { return }
                var from = keys
                for shift in stride(from: UInt64(0), to: 64, by: 8) where (differ >> shift) & 0xFF != 0 {
                    starts.initialize(repeating: 0, count: 256)
                    for i in 0..<count { starts[Int(truncatingIfNeeded: (from[i] >> shift) & 0xFF)] &+= 1 }
                    var sum = 0
                    for digit in 0..<256 { (starts[digit], sum) = (sum, sum &+ starts[digit]) }
                    for i in 0..<count {
                        let digit = Int(truncatingIfNeeded: (from[i] >> shift) & 0xFF)
                        to[starts[digit]] = from[i]
                        starts[digit] &+= 1
                    }
                    swap(&from, &to)
                }
                if from != keys { keys.update(from: from, count: count) }
            }
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
