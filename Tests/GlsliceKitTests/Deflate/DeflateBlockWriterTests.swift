import CPNG
import Foundation
import Testing
@testable import GlsliceKit

/// The hand-written deflate writer (issue 42) against an independent decoder:
/// every stream is wrapped as zlib (header, Adler-32 from zlib) and inflated by
/// zlib's `uncompress`; the bytes it must give are made from the tokens by
/// RFC 1951's rule (a match copies byte by byte from `distance` back).
@Suite struct DeflateBlockWriterTests {
    /// What `tokens` decode to, by the RFC's definition.
    static func expand(_ tokens: [DeflateToken]) -> [UInt8] {
        var out: [UInt8] = []
        for token in tokens {
            if token.isMatch {
                for _ in 0..<token.length { out.append(out[out.count - token.distance]) }
            } else {
                out.append(UInt8(token.literal))
            }
        }
        return out
    }

    /// zlib's inflation of `blocks` written one after another, or nil when zlib refuses the stream.
    static func inflate(_ blocks: [[DeflateToken]], expecting count: Int) -> [UInt8]? {
        var writer = DeflateBlockWriter()
        for (index, block) in blocks.enumerated() { writer.writeBlock(block, last: index == blocks.count - 1) }
        let expected = expand(blocks.flatMap { $0 })
        let adler = UInt32(expected.withUnsafeBufferPointer { adler32(adler32(0, nil, 0), $0.baseAddress, uInt($0.count)) })
        let stream = [0x78, 0x9C] + writer.finish() + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        var out = [UInt8](repeating: 0, count: max(1, count))
        var length = uLong(count)
        guard uncompress(&out, &length, stream, uLong(stream.count)) == Z_OK, Int(length) == count else { return nil }
        return Array(out.prefix(count))
    }

    /// Random streams: literals of a few values or any, matches of every length
    /// and distance the history allows (periods shorter than their length too),
    /// cut into blocks of random sizes.
    @Test func randomStreamsInflateToWhatTheirTokensSay() {
        var rng = SeededGenerator(seed: 42)
        for round in 0..<60 {
            var tokens: [DeflateToken] = [], produced = 0
            let alphabet = round % 3 == 0 ? 256 : round % 3 == 1 ? 4 : 1
            let target = Int.random(in: 1...(round < 50 ? 5000 : 200_000), using: &rng)
            while produced < target {
                if produced >= 3, Int.random(in: 0..<3, using: &rng) == 0 {
                    let length = Int.random(in: 3...258, using: &rng)
                    let distance = Int.random(in: 1...min(32768, produced), using: &rng)
                    tokens.append(.match(length: length, distance: distance))
                    produced += length
                } else {
                    tokens.append(.literal(UInt8(Int.random(in: 0..<alphabet, using: &rng))))
                    produced += 1
                }
            }
            var blocks: [[DeflateToken]] = [], at = 0
            while at < tokens.count {
                let size = Int.random(in: 1...max(1, tokens.count / 3 + 1), using: &rng)
                blocks.append(Array(tokens[at..<min(tokens.count, at + size)]))
                at += size
            }
            let expected = Self.expand(tokens)
            #expect(Self.inflate(blocks, expecting: expected.count) == expected, "round \(round): \(tokens.count) tokens in \(blocks.count) blocks")
            // A block's `bits` (what a piece's stored-or-coded choice is made from) are the bits the writer writes.
            for block in blocks + [[]] {
                var writer = DeflateBlockWriter()
                writer.writeBlock(block, last: false)
                #expect(writer.bitCount == BlockCode(block[...]).bits, "round \(round): a block of \(block.count) tokens")
            }
        }
    }

    /// The awkward tables: an empty block (end-of-block only), one literal over
    /// and over, only matches, and every byte value once.
    @Test(arguments: [
        [[DeflateToken]()],
        [[DeflateToken](repeating: .literal(7), count: 1000)],
        [[.literal(1), .literal(2), .literal(3)] + [DeflateToken](repeating: .match(length: 258, distance: 3), count: 300)],
        [(0...255).map { DeflateToken.literal(UInt8($0)) }, [], [.match(length: 3, distance: 256)]],
    ])
    func awkwardTablesInflate(blocks: [[DeflateToken]]) {
        let expected = Self.expand(blocks.flatMap { $0 })
        #expect(Self.inflate(blocks, expecting: expected.count) == expected)
    }

    /// Counts in a Fibonacci run give a Huffman tree 29 deep: the lengths must
    /// come back within the limit and still form a complete prefix code
    /// (Kraft's sum exactly 1), the most frequent symbols shortest.
    @Test func lengthsAreLimitedAndComplete() {
        var counts = [1, 1]
        while counts.count < 30 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        for limit in [7, 15] {
            let lengths = HuffmanCode.lengths(counts, limit: limit)
            #expect(lengths.allSatisfy { (1...limit).contains($0) })
            let kraft = lengths.reduce(0.0) { $0 + pow(2.0, -Double($1)) }
            #expect(abs(kraft - 1) < 1e-12, "limit \(limit): Kraft sum \(kraft)")
            #expect(lengths.last! <= lengths.first!)
        }
        // A stream whose literal counts are that skewed still inflates.
        let skewed = counts.enumerated().flatMap { symbol, count in [DeflateToken](repeating: .literal(UInt8(symbol)), count: min(count, 4000)) }
        #expect(Self.inflate([skewed], expecting: skewed.count) == Self.expand(skewed))
    }

    /// A block's code is the fixed one exactly where no table of its own is shorter, and its
    /// `bits` are the shorter's: the fixed code's counted by hand from RFC 1951 §3.2.6, the
    /// dynamic one from its lengths and header. Small blocks, where the fixed code is taken
    /// without making tables (its symbols' entropy bound), and larger ones, where it is not.
    @Test func theFixedCodeIsTakenExactlyWhereNoTableIsShorter() {
        var rng = SeededGenerator(seed: 51)
        var fixedTaken = 0, dynamicTaken = 0
        for _ in 0..<600 {
            let count = Int.random(in: 1...600, using: &rng), alphabet = Int.random(in: 1...256, using: &rng)
            let tokens = (0..<count).map { _ -> DeflateToken in
                Int.random(in: 0..<4, using: &rng) == 0
                    ? .match(length: Int.random(in: 3...258, using: &rng), distance: Int.random(in: 1...32768, using: &rng))
                    : .literal(UInt8(Int.random(in: 0..<alphabet, using: &rng)))
            }
            let code = BlockCode(tokens[...])
            // By hand: every symbol's fixed length, the end code's 7 bits, the extra bits and the 3-bit head.
            var fixed = 3 + 7, extra = 0, literals = [Int](repeating: 0, count: 286), distances = [Int](repeating: 0, count: 30)
            for token in tokens {
                if token.isMatch {
                    let symbol = 257 + Int(DeflateToken.lengthCode[token.length]), d = Int(DeflateToken.distanceCode[token.distance - 1])
                    fixed += (symbol < 280 ? 7 : 8) + 5
                    extra += DeflateToken.lengthExtra[symbol - 257] + DeflateToken.distanceExtra[d]
                    literals[symbol] += 1
                    distances[d] += 1
                } else {
                    fixed += token.literal < 144 ? 8 : 9
                    literals[token.literal] += 1
                }
            }
            literals[256] = 1
            let noMatch = !distances.contains { $0 > 0 }
            if noMatch { distances[0] = 1 }
            let literalLengths = HuffmanCode.lengths(literals, limit: 15), distanceLengths = HuffmanCode.lengths(distances, limit: 15)
            let header = BlockCode.Header(literalLengths: literalLengths, distanceLengths: distanceLengths)
            var dynamic = 3 + header.bits + extra
            for (symbol, n) in literals.enumerated() { dynamic += n * literalLengths[symbol] }
            for (symbol, n) in distances.enumerated() where !(noMatch && symbol == 0) { dynamic += n * distanceLengths[symbol] }
            // The choice weighs the lone distance code a block with no match describes but never
            // sends (5 bits fixed, its table's length dynamic).
            let takesFixed = fixed + extra + (noMatch ? 5 : 0) <= dynamic + (noMatch ? distanceLengths[0] : 0)
            #expect(code.bits == (takesFixed ? fixed + extra : dynamic), "\(count) tokens of \(alphabet) values")
            #expect((code.headBits == 3) == takesFixed)
            if code.headBits == 3 { fixedTaken += 1 } else { dynamicTaken += 1 }
        }
        #expect(fixedTaken > 50 && dynamicTaken > 50, "fixed \(fixedTaken), dynamic \(dynamicTaken)")
    }
}
