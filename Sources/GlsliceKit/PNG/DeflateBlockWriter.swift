/// Codes `DeflateToken`s as deflate blocks (RFC 1951), each with Huffman
/// tables made from its own symbol counts (§3.2.7), or the fixed code (§3.2.6)
/// where that is shorter, into bytes. The
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
    package mutating func writeBlock(_ tokens: ArraySlice<DeflateToken>, last: Bool) {
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
        var literalLengths = HuffmanCode.lengths(literalCounts, limit: 15)
        var distanceLengths = HuffmanCode.lengths(distanceCounts, limit: 15)
        let header = Header(literalLengths: literalLengths, distanceLengths: distanceLengths)
        // The fixed code (BTYPE 1) where it is shorter, as for a small block whose tables would cost more than they save.
        func bits(_ counts: [Int], _ lengths: [Int]) -> Int { zip(counts, lengths).reduce(0) { $0 + $1.0 * $1.1 } }
        let dynamic = header.bits + bits(literalCounts, literalLengths) + bits(distanceCounts, distanceLengths)
        let fixed = bits(literalCounts, Self.fixedLiteralLengths) + bits(distanceCounts, Self.fixedDistanceLengths)
        write(last ? 1 : 0, 1)
        if fixed <= dynamic {
            write(1, 2)
            literalLengths = Self.fixedLiteralLengths
            distanceLengths = Self.fixedDistanceLengths
        } else {
            write(2, 2)
            write(header)
        }
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

    /// RFC 1951 §3.2.6's fixed code: literal/length lengths 8, 9, 7, 8; distances 5.
    private static let fixedLiteralLengths = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
    private static let fixedDistanceLengths = [Int](repeating: 5, count: 30)

    /// A dynamic block's header after BTYPE: both code-length tables, run-length
    /// coded with 16 (repeat the previous length 3–6 times), 17 (3–10 zeros) and
    /// 18 (11–138 zeros), and the code-length code that codes them.
    private struct Header {
        var literals: Int, distances: Int, sent: Int
        var runs: [(symbol: Int, extra: Int, bits: Int)] = []
        var lengths: [Int], codes: [UInt32]

        init(literalLengths: [Int], distanceLengths: [Int]) {
            literals = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
            distances = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
            let all = Array(literalLengths[0..<literals]) + Array(distanceLengths[0..<distances])
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
            let lengths = HuffmanCode.lengths(counts, limit: 7)
            self.lengths = lengths
            codes = HuffmanCode.codes(lengths)
            sent = max(4, (Self.order.lastIndex { lengths[$0] > 0 } ?? 0) + 1)
        }

        static let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

        /// Its length in bits.
        var bits: Int { 5 + 5 + 4 + 3 * sent + runs.reduce(0) { $0 + lengths[$1.symbol] + $1.bits } }
    }

    private mutating func write(_ header: Header) {
        write(UInt64(header.literals - 257), 5)
        write(UInt64(header.distances - 1), 5)
        write(UInt64(header.sent - 4), 4)
        for symbol in Header.order.prefix(header.sent) { write(UInt64(header.lengths[symbol]), 3) }
        for run in header.runs {
            write(UInt64(header.codes[run.symbol]), header.lengths[run.symbol])
            write(UInt64(run.extra), run.bits)
        }
    }

    package mutating func writeBlock(_ tokens: [DeflateToken], last: Bool) { writeBlock(tokens[...], last: last) }

    /// An empty stored block (BFINAL 0), which ends on a byte: what zlib's sync
    /// flush writes, so a stream cut here can be continued by another writer.
    package mutating func writeEmptyStoredBlock() {
        write(0, 3)
        if count > 0 { write(0, 8 - count) }
        for byte: UInt64 in [0x00, 0x00, 0xFF, 0xFF] { write(byte, 8) }
    }

    /// Pads the last byte with zero bits and returns every byte written.
    package mutating func finish() -> [UInt8] {
        if count > 0 { write(0, 8 - count) }
        return bytes
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
