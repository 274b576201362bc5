import Foundation

/// One deflate block's code (RFC 1951 §3.2.5–3.2.7): Huffman tables made
/// from the block's own symbol counts, with the header that sends them, or the
/// fixed code (BTYPE 1) where that is shorter, as it is for most small
/// blocks. Made from tokens (`DeflateBlockWriter`); its GLSL twin,
/// `Shaders/deflate_code.comp`, makes the same code from the same counts on the GPU.
package struct BlockCode {
    /// Code lengths and bit-reversed codes: 288 literal/length symbols, 30 distances.
    let literalLengths: [Int], distanceLengths: [Int]
    let literalCodes: [UInt32], distanceCodes: [UInt32]
    /// The dynamic block's tables as sent; nil for the fixed code.
    let header: Header?
    /// The whole block's bits: head, symbols, extra bits and end code (what `DeflateBlockWriter`
    /// writes for it), so a piece's coded size is known before it is written (`StoredBlocks`).
    package let bits: Int

    /// The literal/length (286) and distance (30) counts of `tokens`, without the end-of-block code.
    static func counts(_ tokens: ArraySlice<DeflateToken>) -> (literals: [Int], distances: [Int]) {
        var literalCounts = [Int](repeating: 0, count: 286), distanceCounts = [Int](repeating: 0, count: 30)
        // The tables and counts as buffers, fetched once: no bounds or uniqueness check a token.
        DeflateToken.lengthCode.withUnsafeBufferPointer { lengthCode in
            DeflateToken.distanceCode.withUnsafeBufferPointer { distanceCode in
                literalCounts.withUnsafeMutableBufferPointer { literals in
                    distanceCounts.withUnsafeMutableBufferPointer { distances in
                        for token in tokens {
                            if token.isMatch {
                                literals[257 + Int(lengthCode[token.length])] += 1
                                distances[Int(distanceCode[token.distance - 1])] += 1
                            } else {
                                literals[token.literal] += 1
                            }
                        }
                    }
                }
            }
        }
        return (literalCounts, distanceCounts)
    }

    init(_ tokens: ArraySlice<DeflateToken>) {
        let counts = Self.counts(tokens)
        self.init(literalCounts: counts.literals, distanceCounts: counts.distances)
    }

    /// - Parameters: the block's symbol counts (286 and 30), the end-of-block code not counted.
    package init(literalCounts counted: [Int], distanceCounts distancesCounted: [Int]) {
        var literalCounts = counted, distanceCounts = distancesCounted
        literalCounts[DeflateToken.endOfBlock] = 1
        // A block with no match still describes one distance code (zlib accepts a lone code of length 1).
        if !distanceCounts.contains(where: { $0 > 0 }) { distanceCounts[0] = 1 }
        // Extra bits, alike in both codes; the lone distance code of a block with no match is never sent.
        var extra = 0
        for k in 0..<29 { extra += literalCounts[257 + k] * DeflateToken.lengthExtra[k] }
        for d in 0..<30 { extra += distancesCounted[d] * DeflateToken.distanceExtra[d] }
        let fake = distancesCounted.contains(where: { $0 > 0 }) ? 0 : 1 // distanceCounts[0] set above
        let fixed = Self.bits(literalCounts, Self.fixedLiteralLengths) + Self.bits(distanceCounts, Self.fixedDistanceLengths)
        if Double(fixed) <= Self.leastDynamicBits(literalCounts) + Self.leastDynamicBits(distanceCounts) + Double(Header.leastBits) {
            // No dynamic code could be shorter (most small blocks): the fixed code, with no tables made.
            self.init(fixedBits: 3 + fixed + extra - fake * Self.fixedDistanceLengths[0])
            return
        }
        let literalLengths = HuffmanCode.lengths(literalCounts, limit: 15)
        let distanceLengths = HuffmanCode.lengths(distanceCounts, limit: 15)
        let header = Header(literalLengths: literalLengths, distanceLengths: distanceLengths)
        let dynamic = header.bits + Self.bits(literalCounts, literalLengths) + Self.bits(distanceCounts, distanceLengths)
        if fixed <= dynamic {
            self.init(fixedBits: 3 + fixed + extra - fake * Self.fixedDistanceLengths[0])
            return
        }
        let sent = literalLengths + [0, 0]
        self.init(bits: 3 + dynamic + extra - fake * distanceLengths[0], header: header, literalLengths: sent,
                  distanceLengths: distanceLengths, literalCodes: HuffmanCode.codes(sent), distanceCodes: HuffmanCode.codes(distanceLengths))
    }

    /// The fixed code's block of `bits` bits, its codes made once.
    private init(fixedBits bits: Int) {
        self.init(bits: bits, header: nil, literalLengths: Self.fixedLiteralLengths, distanceLengths: Self.fixedDistanceLengths,
                  literalCodes: Self.fixedLiteralCodes, distanceCodes: Self.fixedDistanceCodes)
    }

    private init(bits: Int, header: Header?, literalLengths: [Int], distanceLengths: [Int], literalCodes: [UInt32], distanceCodes: [UInt32]) {
        self.bits = bits
        self.header = header
        self.literalLengths = literalLengths
        self.distanceLengths = distanceLengths
        self.literalCodes = literalCodes
        self.distanceCodes = distanceCodes
    }

    private static func bits(_ counts: [Int], _ lengths: [Int]) -> Int {
        counts.withUnsafeBufferPointer { counts in
            lengths.withUnsafeBufferPointer { lengths in
                var total = 0
                for i in 0..<min(counts.count, lengths.count) { total += counts[i] * lengths[i] }
                return total
            }
        }
    }

    /// Fewer bits than any prefix code of `counts` could spend on its symbols: their
    /// entropy (Shannon's bound, which Huffman's lengths, limited or not, never beat), less
    /// a bit and a millionth a symbol for the doubles' rounding.
    private static func leastDynamicBits(_ counts: [Int]) -> Double {
        var total = 0, sum = 0.0
        countLog2.withUnsafeBufferPointer { table in
            for count in counts where count > 0 {
                total += count
                sum += count < table.count ? table[count] : Double(count) * log2(Double(count))
            }
        }
        guard total > 0 else { return 0 }
        return Double(total) * log2(Double(total)) - sum - 1 - 1e-6 * Double(total)
    }

    /// n log2 n for the counts most blocks have, worked out once (the same doubles: a log2 a
    /// symbol was a sixth of a block's code).
    private static let countLog2: [Double] = (0..<4096).map { $0 == 0 ? 0 : Double($0) * log2(Double($0)) }

    /// Bits of the block's head: BFINAL, BTYPE and any tables.
    var headBits: Int { 3 + (header?.bits ?? 0) }

    /// Bits of the end-of-block code.
    var endBits: Int { literalLengths[DeflateToken.endOfBlock] }

    /// RFC 1951 §3.2.6's fixed code: literal/length lengths 8, then 9 from `fixedNineFrom`, 7 from
    /// the end of block, 8 again from `fixedEightFrom`; distances 5.
    static let fixedNineFrom = 144, fixedEightFrom = 280
    private static let fixedLiteralLengths = (0..<288).map {
        $0 < fixedNineFrom ? 8 : $0 < DeflateToken.endOfBlock ? 9 : $0 < fixedEightFrom ? 7 : 8
    }
    private static let fixedDistanceLengths = [Int](repeating: 5, count: 30)
    private static let fixedLiteralCodes = HuffmanCode.codes(fixedLiteralLengths)
    private static let fixedDistanceCodes = HuffmanCode.codes(fixedDistanceLengths)

    /// A dynamic block's header after BTYPE: both code-length tables, run-length
    /// coded with 16 (repeat the previous length 3–6 times), 17 (3–10 zeros) and
    /// 18 (11–138 zeros), and the code-length code that codes them.
    struct Header {
        var literals: Int, distances: Int, sent: Int
        var runs: [(symbol: Int, extra: Int, bits: Int)] = []
        var lengths: [Int], codes: [UInt32]

        init(literalLengths: [Int], distanceLengths: [Int]) {
            literals = max(Self.leastLiteralCodes, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
            distances = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
            var all: [Int] = []
            all.reserveCapacity(literals + distances)
            all += literalLengths[0..<literals]
            all += distanceLengths[0..<distances]
            runs.reserveCapacity(all.count) // at most one run a length: no reallocation as they are added
            var i = 0
            while i < all.count {
                var run = 1
                while i + run < all.count, all[i + run] == all[i] { run += 1 }
                if all[i] == 0 && run >= 3 {
                    let n = min(run, Self.longestZeroRun)
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
        /// HLIT's least (the literals and the end of block) and symbol 18's longest run of zeros (RFC 1951 §3.2.7).
        static let leastLiteralCodes = 257, longestZeroRun = 138

        /// No header is shorter: HLIT, HDIST and HCLEN, and at least four code-length lengths.
        static let leastBits = 5 + 5 + 4 + 3 * 4

        /// Its length in bits, after BFINAL and BTYPE.
        var bits: Int { 5 + 5 + 4 + 3 * sent + runs.reduce(0) { $0 + lengths[$1.symbol] + $1.bits } }
    }
}
