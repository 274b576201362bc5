import Testing
@testable import GlsliceKit

/// `deflate_code.comp` makes each block's code on the GPU (issue 52). It must make `BlockCode`'s,
/// whose streams zlib inflates in the CPU encoder's tests: the same lengths and codes, the same
/// choice of the fixed code, and the same head, bit for bit.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUBlockCodeTests {
    /// Blocks' counts: 286 literal/length symbols, then 30 distances.
    static func cases() -> [[UInt32]] {
        var random = SeededGenerator(seed: 5252)
        func draw(_ below: UInt64) -> UInt32 { UInt32(random.next() % below) }
        var all: [[UInt32]] = []
        all.append([UInt32](repeating: 0, count: 316)) // an empty block (the stream's last after a cut)
        var one = [UInt32](repeating: 0, count: 316)
        one[65] = 7 // one literal, no match
        all.append(one)
        // Fibonacci counts: Huffman goes past 15 bits, so leaves move up.
        var deep = [UInt32](repeating: 0, count: 316)
        var (a, b): (UInt32, UInt32) = (1, 1)
        for s in 0..<24 {
            deep[s * 10] = a
            (a, b) = (b, a + b)
        }
        deep[290] = 3
        all.append(deep)
        for index in 0..<60 {
            var counts = [UInt32](repeating: 0, count: 316)
            let density = [2, 5, 20, 100][index % 4]
            for s in 0..<286 where draw(100) < density { counts[s] = draw([4, 40, 400, 2000][index / 4 % 4]) + 1 }
            for d in 0..<30 where index % 3 != 0 && draw(100) < density { counts[286 + d] = draw(300) + 1 }
            if index % 3 != 0 { for s in 257..<286 where draw(100) < density { counts[s] += draw(50) } }
            all.append(counts)
        }
        return all
    }

    @Test func theGPUMakesBlockCodesCodes() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make())
        let cases = Self.cases()
        let records = try gpu.blockCodes(cases)
        var dynamic = 0
        for (b, counts) in cases.enumerated() {
            let code = BlockCode(literalCounts: counts[0..<286].map(Int.init), distanceCounts: counts[286...].map(Int.init))
            if code.header != nil { dynamic += 1 }
            let record = b * ShaderRecords.blockTableWords
            for s in 0..<288 where records[record + s] != code.literalCodes[s] | UInt32(code.literalLengths[s]) << 16 {
                Issue.record("block \(b): literal/length \(s) is \(records[record + s] >> 16) bits on the GPU, \(code.literalLengths[s]) on the CPU")
                break
            }
            for d in 0..<30 where records[record + 288 + d] != code.distanceCodes[d] | UInt32(code.distanceLengths[d]) << 16 {
                Issue.record("block \(b): distance \(d) differs")
                break
            }
            let ends = GPUDeflater.ends(records, block: b)
            #expect(ends.headBits == code.headBits, "block \(b)")
            #expect(ends.endBits == code.endBits && ends.endCode == code.literalCodes[DeflateToken.endOfBlock], "block \(b)")
            var writer = DeflateBlockWriter()
            writer.writeHead(code, last: false)
            let head = writer.finish(), gpuHead = ends.head.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
            #expect(Array(gpuHead.prefix(head.count)) == head, "block \(b): the head differs")
        }
        // Both kinds of block were made (a fixed code for the sparse ones).
        #expect(dynamic >= 20 && dynamic < cases.count)
    }
}
