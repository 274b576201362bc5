/// Deflate blocks made only of copies ("the next `length` bytes are those
/// `distance` back"),
/// written without a match search, for rows the plan says repeat (a stretched
/// 1-px row, nearest sampling of one source row, a tile period that fits the
/// window). RFC 1951 allows a match to overlap what it is copying, so a run of
/// R equal rows of B bytes is one copy of R × B bytes at distance B; the
/// constant stretches inside those rows are copies from one pixel back, which
/// cost fewer extra bits (`RowCopies` cuts a row so).
///
/// Each block is a dynamic-Huffman block (§3.2.7) whose codes cover only the
/// symbols it uses: length 258 is then about one bit, so a run costs what
/// zlib's own output for the same run costs (1 + 1 + the distance's extra bits
/// per 258 bytes) without hashing any of it. zlib decodes it like any other
/// block; the tests read these streams back with zlib and with libpng.
enum CopyRunBlock {
    /// Appends one block of `copies` (each `length` ≥ 3 bytes from `distance`
    /// 1…32,768 back, in order), then either the final-block end or an empty
    /// stored block, so whatever follows starts on a byte boundary (a zlib piece).
    static func write(copies: [(length: Int, distance: Int)], final: Bool, into bits: inout DeflateBits) {
        var matches: [(length: Int, distance: Int)] = []
        for copy in copies {
            precondition(copy.length >= 3 && (1...32768).contains(copy.distance))
            for l in matchLengths(copy.length) { matches.append((l, copy.distance)) }
        }
        // Literal/length alphabet: the length codes used, and 256 (end of block).
        var frequency = [Int](repeating: 0, count: 286)
        var distFrequency = [Int](repeating: 0, count: 30)
        for m in matches {
            frequency[lengthCode(m.length).symbol] += 1
            distFrequency[distanceCode(m.distance).symbol] += 1
        }
        frequency[256] += 1
        let litLengths = huffmanLengths(frequency, limit: 15)
        let litCodes = canonicalCodes(litLengths)
        // Distance alphabet: a lone code gets a second, unused one, so the code
        // is complete (a single 1-bit code is legal, but not every inflater says so).
        if distFrequency.filter({ $0 > 0 }).count == 1 {
            distFrequency[distFrequency[0] == 0 ? 0 : 1] = 1
        }
        var distLengths = huffmanLengths(distFrequency, limit: 15)
        distLengths = Array(distLengths[0...(distLengths.lastIndex { $0 > 0 } ?? 0)])
        let distCodes = canonicalCodes(distLengths)

        bits.write(final ? 1 : 0, count: 1)
        bits.write(2, count: 2) // dynamic Huffman
        writeCodeLengths(literal: litLengths, distance: distLengths, into: &bits)
        for m in matches {
            let code = lengthCode(m.length), dist = distanceCode(m.distance)
            bits.write(code: litCodes[code.symbol], length: litLengths[code.symbol])
            bits.write(code.extra, count: code.extraBits)
            bits.write(code: distCodes[dist.symbol], length: distLengths[dist.symbol])
            bits.write(dist.extra, count: dist.extraBits)
        }
        bits.write(code: litCodes[256], length: litLengths[256])
        if final {
            bits.alignToByte()
        } else {
            bits.write(0, count: 3) // an empty stored block: BFINAL 0, BTYPE 00,
            bits.alignToByte()      // padding, LEN 0, NLEN 0xFFFF
            bits.append(bytes: [0, 0, 0xFF, 0xFF])
        }
    }

    /// `total` as match lengths of 3…258: 258s, then the rest, where a rest of
    /// 1 or 2 bytes borrows from the last 258 (a match is at least 3 long).
    static func matchLengths(_ total: Int) -> [Int] {
        var lengths = [Int](repeating: 258, count: total / 258)
        let rest = total % 258
        if rest >= 3 {
            lengths.append(rest)
        } else if rest > 0 {
            lengths.removeLast()
            lengths += [255 + rest, 3]
        }
        return lengths
    }

    /// RFC 1951 §3.2.5: a match length's symbol (257…285) and extra bits.
    static func lengthCode(_ length: Int) -> (symbol: Int, extraBits: Int, extra: Int) {
        if length == 258 { return (285, 0, 0) }
        if length <= 10 { return (254 + length, 0, 0) }
        var base = 11, symbol = 265
        for extraBits in 1...5 {
            for _ in 0..<4 {
                let span = 1 << extraBits
                if length < base + span { return (symbol, extraBits, length - base) }
                base += span
                symbol += 1
            }
        }
        preconditionFailure("match length \(length) out of range")
    }

    /// RFC 1951 §3.2.5: a distance's symbol (0…29) and extra bits.
    static func distanceCode(_ distance: Int) -> (symbol: Int, extraBits: Int, extra: Int) {
        if distance <= 4 { return (distance - 1, 0, 0) }
        var base = 5, symbol = 4
        for extraBits in 1...13 {
            for _ in 0..<2 {
                let span = 1 << extraBits
                if distance < base + span { return (symbol, extraBits, distance - base) }
                base += span
                symbol += 1
            }
        }
        preconditionFailure("distance \(distance) out of range")
    }

    /// HLIT, HDIST, HCLEN and the two code-length lists, run-length coded
    /// (§3.2.7): zero runs as symbols 17 and 18, other lengths as themselves.
    private static func writeCodeLengths(literal: [Int], distance: [Int], into bits: inout DeflateBits) {
        let litCount = max(257, (literal.lastIndex { $0 > 0 } ?? 0) + 1)
        let distCount = max(1, (distance.lastIndex { $0 > 0 } ?? 0) + 1)
        var symbols: [(symbol: Int, extraBits: Int, extra: Int)] = []
        let all = Array(literal[0..<litCount]) + Array(distance[0..<distCount])
        var i = 0
        while i < all.count {
            if all[i] != 0 {
                symbols.append((all[i], 0, 0))
                i += 1
                continue
            }
            var run = 0
            while i + run < all.count && all[i + run] == 0 && run < 138 { run += 1 }
            if run >= 11 {
                symbols.append((18, 7, run - 11))
            } else if run >= 3 {
                symbols.append((17, 3, run - 3))
            } else {
                symbols += Array(repeating: (0, 0, 0), count: run)
            }
            i += run
        }
        var frequency = [Int](repeating: 0, count: 19)
        for s in symbols { frequency[s.symbol] += 1 }
        let clLengths = huffmanLengths(frequency, limit: 7)
        let clCodes = canonicalCodes(clLengths)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let clCount = max(4, (order.lastIndex { clLengths[$0] > 0 } ?? 0) + 1)
        bits.write(litCount - 257, count: 5)
        bits.write(distCount - 1, count: 5)
        bits.write(clCount - 4, count: 4)
        for k in 0..<clCount { bits.write(clLengths[order[k]], count: 3) }
        for s in symbols {
            bits.write(code: clCodes[s.symbol], length: clLengths[s.symbol])
            bits.write(s.extra, count: s.extraBits)
        }
    }

    /// Huffman code lengths for the symbols with a non-zero frequency (at least
    /// two), no longer than `limit`. The alphabets here are small (≤ 19 used
    /// symbols), so two-smallest merging is quick; should a length pass the
    /// limit, a balanced complete code is used instead (valid, a little larger).
    static func huffmanLengths(_ frequency: [Int], limit: Int) -> [Int] {
        let used = frequency.indices.filter { frequency[$0] > 0 }
        precondition(used.count >= 2, "a Huffman code here has at least two symbols")
        var lengths = [Int](repeating: 0, count: frequency.count)
        var nodes: [(weight: Int, members: [Int])] = used.map { (frequency[$0], [$0]) }
        while nodes.count > 1 {
            nodes.sort { $0.weight > $1.weight }
            let a = nodes.removeLast(), b = nodes.removeLast()
            for m in a.members + b.members { lengths[m] += 1 }
            nodes.append((a.weight + b.weight, a.members + b.members))
        }
        if used.allSatisfy({ lengths[$0] <= limit }) { return lengths }
        // Balanced: 2^k ≥ n; (2^k − n) symbols at k − 1 bits, the rest at k.
        var k = 0
        while 1 << k < used.count { k += 1 }
        let short = (1 << k) - used.count
        for (rank, symbol) in used.enumerated() { lengths[symbol] = rank < short ? k - 1 : k }
        return lengths
    }

    /// Canonical codes for `lengths` (RFC 1951 §3.2.2).
    static func canonicalCodes(_ lengths: [Int]) -> [Int] {
        let maxLength = lengths.max() ?? 0
        var count = [Int](repeating: 0, count: maxLength + 1)
        for l in lengths where l > 0 { count[l] += 1 }
        var next = [Int](repeating: 0, count: maxLength + 2)
        var code = 0
        for bitsLength in 1...max(1, maxLength) {
            code = (code + count[bitsLength - 1]) << 1
            next[bitsLength] = code
        }
        var codes = [Int](repeating: 0, count: lengths.count)
        for (symbol, l) in lengths.enumerated() where l > 0 {
            codes[symbol] = next[l]
            next[l] += 1
        }
        return codes
    }
}
