/// The block-code pass (`Shaders/deflate_code.comp`): each block's code made on the GPU from the
/// counts the first coding pass gathered, the twin of `BlockCode` (issue 52), and read back only
/// where the CPU writes heads and ends into the stream.
extension GPUDeflater {
    /// Block `b`'s head and end, from the records `deflate_code.comp` wrote (a head of `tooLong`
    /// bits: its loops ran out).
    static func ends(_ tables: [UInt32], block b: Int) -> DeflateLayout.BlockEnds {
        let record = b * ShaderRecords.blockTableWords, headBits = Int(tables[record + ShaderRecords.headBitsWord])
        let headAt = record + ShaderRecords.headAt, end = tables[record + DeflateToken.endOfBlock]
        let head = tables[headAt..<(headAt + (headBits == Int(Self.tooLong) ? 0 : (headBits + 31) / 32))]
        return DeflateLayout.BlockEnds(head: head, headBits: headBits, endCode: end & Self.codeMask, endBits: Int(end >> Self.codeLengthShift))
    }

    /// Each block's code (`deflate_code.comp`) from the counts in the out buffer, into the codes buffer.
    func makeCodes(blocks: Int) throws {
        try buffers.reserve(Slot.codes.rawValue, words: max(1, blocks) * ShaderRecords.blockTableWords)
        for (binding, slot) in [Slot.out, .codes].enumerated() { try buffers.bind(slot.rawValue, to: binding) }
        try blockCoder.use()
        try blockCoder.set(["blocks": blocks, "probeIterations": 2])
        try blockCoder.dispatch(groups: blocks)
    }

    /// The codes `deflate_code.comp` makes for blocks of these symbol counts (286 literal/length, 30
    /// distance each): their records (`ShaderRecords.blockTableWords` words a block). For tests.
    func blockCodes(_ counts: [[UInt32]]) throws -> [UInt32] {
        try context.makeCurrent()
        try counts.joined().map { $0 }.withUnsafeBytes { try buffers.upload(Slot.out.rawValue, $0) }
        try makeCodes(blocks: counts.count)
        return try buffers.read(Slot.codes.rawValue, words: counts.count * ShaderRecords.blockTableWords)
    }
}
