/// Codes `DeflateToken`s as dynamic-Huffman deflate blocks (RFC 1951 §3.2.7),
/// each block with tables made from its own symbol counts, into bytes. The
/// blocks follow each other with no alignment; `finish` ends the last one on a
/// byte. This is the hand-written part of issue 42's encoder, kept to what no
/// library offers (zlib searches for its own matches; it cannot be handed
/// them), and every stream it writes in the tests is inflated by zlib.
package struct DeflateBlockWriter {
    package private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Appends one block holding `tokens` (and its end-of-block code); `last` sets BFINAL.
    package mutating func writeBlock(_ tokens: [DeflateToken], last: Bool) {
        var literalCounts = [Int](repeating: 0, count: 286), distanceCounts = [Int](repeating: 0, count: 30)
        for token in tokens {
            if token.isMatch {
                literalCounts[257 + Int(DeflateToken.lengthCode[token.length])] += 1
                distanceCounts[Int(DeflateToken.distanceCode[token.distance - 1])] += 1
            } else {
                literalCounts[token.literal] += 1
            }
        }
        literalCounts[256] = 1
        // A block with no match still describes one distance code (zlib accepts a lone code of length 1).
        if !distanceCounts.contains(where: { $0 > 0 }) { distanceCounts[0] = 1 }
        let literalLengths = HuffmanCode.lengths(literalCounts, limit: 15)
        let distanceLengths = HuffmanCode.lengths(distanceCounts, limit: 15)
        writeHeader(literalLengths: literalLengths, distanceLengths: distanceLengths, last: last)
        let literalCodes = HuffmanCode.codes(literalLengths), distanceCodes = HuffmanCode.codes(distanceLengths)
        for token in tokens {
            if token.isMatch {
                let length = token.length, distance = token.distance
                let lc = Int(DeflateToken.lengthCode[length]), dc = Int(DeflateToken.distanceCode[distance - 1])
                write(UInt64(literalCodes[257 + lc]), literalLengths[257 + lc])
                write(UInt64(length - DeflateToken.lengthBase[lc]), DeflateToken.lengthExtra[lc])
                write(UInt64(distanceCodes[dc]), distanceLengths[dc])
                write(UInt64(distance - DeflateToken.distanceBase[dc]), DeflateToken.distanceExtra[dc])
            } else {
                write(UInt64(literalCodes[token.literal]), literalLengths[token.literal])
            }
        }
        write(UInt64(literalCodes[256]), literalLengths[256])
    }

    /// Pads the last byte with zero bits and returns every byte written.
    package mutating func finish() -> [UInt8] {
        if count > 0 { write(0, 8 - count) }
        return bytes
    }

    /// BFINAL, BTYPE 2, then both code-length tables, run-length coded with 16
    /// (repeat the previous length 3–6 times), 17 (3–10 zeros) and 18 (11–138 zeros).
    private mutating func writeHeader(literalLengths: [Int], distanceLengths: [Int], last: Bool) {
        let literals = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let distances = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let all = Array(literalLengths[0..<literals]) + Array(distanceLengths[0..<distances])
        var runs: [(symbol: Int, extra: Int, bits: Int)] = []
        var i = 0
        while i < all.count {
            var run = 1
            while i + run < all.count, all[i + run] == all[i] { run += 1 }
            if all[i] == 0 && run >= 3 {
                let n = min(run, 138)
                runs.append(n >= 11 ? (18, n - 11, 7) : (17, n - 3, 3))
                i += n
            } else if all[i] != 0 && run >= 4 {
                let n = min(run - 1, 6)
                runs.append((all[i], 0, 0))
                runs.append((16, n - 3, 2))
                i += 1 + n
            } else {
                runs.append((all[i], 0, 0))
                i += 1
            }
        }
        var counts = [Int](repeating: 0, count: 19)
        for run in runs { counts[run.symbol] += 1 }
        // zlib refuses an incomplete code-length code: a lone symbol gets a partner.
        if counts.filter({ $0 > 0 }).count == 1 { counts[counts[0] > 0 ? 18 : 0] = 1 }
        let lengths = HuffmanCode.lengths(counts, limit: 7), codes = HuffmanCode.codes(lengths)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let sent = max(4, (order.lastIndex { lengths[$0] > 0 } ?? 0) + 1)
        write(last ? 1 : 0, 1)
        write(2, 2)
        write(UInt64(literals - 257), 5)
        write(UInt64(distances - 1), 5)
        write(UInt64(sent - 4), 4)
        for symbol in order.prefix(sent) { write(UInt64(lengths[symbol]), 3) }
        for run in runs {
            write(UInt64(codes[run.symbol]), lengths[run.symbol])
            write(UInt64(run.extra), run.bits)
        }
    }

    /// `bits` low bits of `value`, first bit first.
    private mutating func write(_ value: UInt64, _ bits: Int) {
        guard bits > 0 else { return }
        buffer |= value << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }
}
