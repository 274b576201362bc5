import CEGL
import CPNG
import Shaders

/// glslice's own deflate (the default compression) as compute passes (issue 43), giving the
/// CPU's bytes: `Shaders/deflate_tokens.comp` chooses each row's tokens (the
/// twin of `RepeatDeflater`'s rule), one invocation per unit of rows, then the
/// Adler-32 sums of each 4 KiB; `Shaders/deflate_pack.comp` counts each block's
/// symbols, `Shaders/deflate_code.comp` makes each block's code from them (the twin of
/// `BlockCode`), and `deflate_pack.comp` sizes each row's bits and writes them. The CPU places
/// the rows (`DeflateLayout`), and reads back only the token counts, the per-row figures with
/// the blocks' heads, and the stream: three waits. One call takes many jobs (an
/// atlas's outputs, or pieces of one) with the dispatches and waits of one
/// (docs/DESIGN.md gives the measured counts). Needs ES 3.1 (`GPUContext.hasCompute`).
///
/// Not `Sendable`: its GL objects belong to the context's thread.
final class GPUDeflater {
    /// Rows of one image to deflate, whose scanlines are already in the deflater's buffer.
    struct Job {
        var deflater: RepeatDeflater
        /// Where its first row starts in the scanlines, in bytes.
        var firstRowByte: Int
        /// The first byte a match may reach: its image's first byte, or 32 KiB
        /// or more back, where its history starts.
        var oldest: Int
        /// Its first row's number in the image (the repeat map's rows).
        var firstRow: Int
        var rows: Int
        var cuts: SegmentedZlib.Cuts = .standard
        /// The rows end the image (else they end where a piece is cut).
        var endsImage: Bool
        /// Its image's zlib window (`SegmentedZlib.windowBits`), for a piece `PieceGuard` has zlib code.
        var windowBits: Int32 = 15
    }

    /// A job's deflate stream, cut into pieces as `SegmentedZlib` cuts them, and its rows' Adler-32 (from 1).
    struct Deflated {
        var stream: [UInt8]
        var adler: UInt32
    }

    let context: GPUContext
    let chooser: ComputeProgram
    private let coder: ComputeProgram
    /// Each block's code from its counts (`deflate_code.comp`).
    let blockCoder: ComputeProgram
    let buffers: ShaderBuffers
    /// Rows one call takes at most: 64 a work group, 65,535 groups (their descriptors, 16 bytes a row, stay under 64 MiB).
    static let maxRowsPerDispatch = 64 * 65535
    /// Bytes of scanlines one invocation sums for the Adler-32.
    static let segmentBytes = 4096
    /// What a pass writes for a row (or segment) that ran out of llvmpipe's loop iterations.
    static let tooLong = UInt32.max
    /// A code table's word (`deflate_code.comp`): the code, its length above `codeLengthShift`.
    static let codeLengthShift: UInt32 = 16, codeMask: UInt32 = 0xFFFF
    /// A plan row's words: its copy's distance (`backMask`) | its run ahead << `runAheadShift`; its
    /// job << `runAtBits` | where it sits in its copy run (`runAtMask`: under 2 x 258).
    static let runAheadShift: UInt32 = 16, backMask: UInt32 = 0xFFFF, runAtBits = 10, runAtMask: UInt32 = 0x3FF
    /// RFC 1950's Adler-32 modulus, for the sums a pass makes (the CPU's Adler-32 is libdeflate's).
    static let adlerModulus = 65521

    /// The buffers' bindings in `deflate_tokens.comp`, then `deflate_pack.comp`'s.
    enum Slot: Int, CaseIterable {
        case scanlines, parts, plan, tokens, counts, adler, hashes, rowInfo, codes, out, seams
    }

    /// A unit's hash table in the token pass, in words: where each hash was last seen, then before.
    static let tableWords = 2 << RepeatDeflater.maxHashBits
    /// Units whose hash tables one token dispatch holds (a call's units go in waves of this many):
    /// an eighth of the GPU memory budget (1,024 at `--gpu-mb 256`), within the driver's largest buffer.
    let tableSlots: Int

    /// Scanline bytes one call deflates at most: `dispatchBytes`, cut to whole jobs (a job over it goes alone).
    let dispatchBytes: Int
    /// Scanline bytes one dispatch may take whatever the budget: its tokens (four bytes each) and its
    /// stream (at most ~1.2 bits a bit of scanlines, with its 32-bit bit offsets) stay under 512 MiB.
    static let maxDispatchBytes = 128 << 20

    init(context: GPUContext, dispatchBytes: Int = 16 << 20, memory: GPUMemory? = nil) throws {
        guard context.hasCompute else { throw UnavailableErrors.noCompute(context.version) }
        self.context = context
        self.dispatchBytes = min(Self.maxDispatchBytes, max(1, dispatchBytes))
        try context.makeCurrent()
        var largest: GLint64 = 0
        try GLCheck.gl("glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE)") { glGetInteger64v(GLenum(GL_MAX_SHADER_STORAGE_BLOCK_SIZE), &largest) }
        let tableBytes = 4 * Self.tableWords, budget = memory?.budget ?? GPUMemory.defaultBudget
        tableSlots = max(1, min(max(64, budget / 8 / tableBytes), Int(largest) / tableBytes))
        chooser = try ComputeProgram(ShaderSource.deflateTokens, name: "deflate_tokens.comp",
                                     uniforms: ["unitsFrom", "units", "unitsAt", "segments", "segmentsAt", "jobsAt", "mode", "probeIterations"])
        coder = try ComputeProgram(ShaderSource.deflatePack, name: "deflate_pack.comp", uniforms: ["rows", "mode", "blockStarts", "probeIterations"])
        blockCoder = try ComputeProgram(ShaderSource.deflateCode, name: "deflate_code.comp", uniforms: ["blocks", "probeIterations"])
        buffers = try ShaderBuffers(count: Slot.allCases.count, memory: memory)
    }

    /// Gives back a large call's buffer storage (after each encoding call).
    func shrink() throws { try buffers.shrink() }

    /// Why `job` cannot go to the passes at all (over a limit on its own, or past 32-bit
    /// offsets), before any GL call: the caller cuts it smaller or the CPU encodes it.
    static func refusal(_ job: Job) -> GlsliceError? {
        let bytes = job.rows * job.deflater.rowBytesAndPixelBytes.rowBytes
        if job.rows > maxRowsPerDispatch { return UnavailableErrors.gpuEncodeOverLimit(.rows, job.rows, limit: maxRowsPerDispatch) }
        if bytes > maxDispatchBytes { return UnavailableErrors.gpuEncodeOverLimit(.scanlineBytes, bytes, limit: maxDispatchBytes) }
        if job.firstRowByte + bytes > Int(UInt32.max) {
            return UnavailableErrors.gpuEncodeOverLimit(.scanlineEnd, job.firstRowByte + bytes, limit: Int(UInt32.max))
        }
        return nil
    }

    /// Makes the scanlines the passes read `bytes` (uploaded: for tests).
    func setScanlines(_ bytes: UnsafeRawBufferPointer) throws {
        try context.makeCurrent()
        try buffers.upload(Slot.scanlines.rawValue, bytes, padTo: 4)
    }

    /// Makes room for `bytes` of scanlines, bound at `binding` for a pass that writes them (`GPUEncoder`).
    func bindScanlines(bytes: Int, to binding: Int) throws {
        try buffers.reserve(Slot.scanlines.rawValue, words: (bytes + 3) / 4)
        try buffers.bind(Slot.scanlines.rawValue, to: binding)
    }

    /// Writes `bytes` into the scanlines from byte `offset` (after `bindScanlines`): the rows a strip's matches reach back to.
    func writeScanlines(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { try buffers.write(Slot.scanlines.rawValue, $0, at: offset) }
    }

    /// `count` bytes of the scanlines from byte `offset`.
    func readScanlines(from offset: Int, count: Int) throws -> [UInt8] {
        let first = offset / 4, words = try buffers.read(Slot.scanlines.rawValue, words: (offset + count + 3) / 4 - first, from: first)
        // The words' bytes as they lie: little-endian, the scanlines' order.
        return words.withUnsafeBytes { Array($0[(offset - 4 * first)..<(offset - 4 * first + count)]) }
    }

    /// Each row's tokens for a job whose scanlines hold before its rows every
    /// byte a match may reach. For tests.
    func tokens(_ job: Job) throws -> [[DeflateToken]] {
        let rowBytes = job.deflater.rowBytesAndPixelBytes.rowBytes
        guard case .success(let chosen) = try choose([job])[0] else { throw UnavailableErrors.gpuLoopLimit(context.renderer) }
        let tokens = try buffers.read(Slot.tokens.rawValue, words: job.rows * rowBytes)
        return (0..<job.rows).map { r in
            tokens[chosen.firstTokens[r]..<(chosen.firstTokens[r] + chosen.counts[r])].map { DeflateToken(packed: $0) }
        }
    }

    /// Each job's stream and Adler-32, or why the GPU could not make it
    /// (`.unavailable`: llvmpipe's loop limit, or a job over a limit on its own).
    /// The jobs go in calls cut by every limit the passes have (rows, bytes),
    /// decided before any GL call. Throws when a GL call fails, which loses that call's jobs.
    func deflate(_ jobs: [Job]) throws -> [Result<Deflated, any Error>] {
        var results: [Result<Deflated, any Error>?] = jobs.map { job in Self.refusal(job).map { .failure($0) } }
        let taken = jobs.indices.filter { results[$0] == nil }
        let calls = taken.grouped(within: SIMD2(Self.maxRowsPerDispatch, dispatchBytes)) { j in
            SIMD2(jobs[j].rows, jobs[j].rows * jobs[j].deflater.rowBytesAndPixelBytes.rowBytes)
        }
        for call in calls {
            for (j, result) in zip(call, try deflateCall(call.map { jobs[$0] })) { results[j] = result }
        }
        return results.map { $0 ?? .failure(InternalErrors.noAnswer()) }
    }

    /// One call's passes over jobs within every limit together: the tokens, each block's code from
    /// their counts, where each row's bits go, the bits, then each job's pieces finished.
    private func deflateCall(_ jobs: [Job]) throws -> [Result<Deflated, any Error>] {
        var call = CodeCall(jobs, chosen: try choose(jobs))
        // Counts, per block, then each block's code from them, made and kept on the GPU.
        try call.rowInfo.withUnsafeBytes { try buffers.upload(Slot.rowInfo.rawValue, $0) }
        try clear(words: call.blocks * ShaderRecords.blockCountWords)
        try code(rows: call.rows, mode: 0)
        try makeCodes(blocks: call.blocks)
        // Bits, per row, and where blocks begin inside rows; then the blocks' heads and ends (one wait).
        try clear(words: call.rows + call.blocks)
        try code(rows: call.rows, mode: 1, blockStarts: call.rows)
        let sizes = try buffers.read(Slot.out.rawValue, words: call.rows + call.blocks)
        let tables = try buffers.read(Slot.codes.rawValue, words: call.blocks * ShaderRecords.blockTableWords)
        let codes = (0..<call.blocks).map { b in Self.ends(tables, block: b) }
        let words = call.place(jobs, sizes: sizes, codes: codes, renderer: context.renderer)
        // The bits.
        try call.rowInfo.withUnsafeBytes { try buffers.upload(Slot.rowInfo.rawValue, $0) }
        try clear(words: words)
        try code(rows: call.rows, mode: 2)
        let stream = try buffers.read(Slot.out.rawValue, words: words)
        try stream.withUnsafeBufferPointer { stream in
            for (j, place) in call.placed.enumerated() {
                guard let (layout, placement, word) = place else { continue }
                let mine = UnsafeBufferPointer(rebasing: stream[word..<(word + placement.byteCount / 4 + 2)])
                let codes = codes[call.blockBase[j]..<(call.blockBase[j] + layout.blocks.count)]
                call.results[j] = .success(try finish(jobs[j], layout.finish(mine, placement: placement, codes: codes), layout: layout,
                                                      placement: placement, adler: call.adlers[j]))
            }
        }
        // Every job has its result: failed before the bits, or placed.
        return call.results.compactMap { $0 }
    }

    /// A job's stream as its pieces end it: pieces that code larger than stored (noise) are stored,
    /// and those `PieceGuard` sends to zlib 6 are its, from their scanlines (and the window before
    /// them) read back.
    private func finish(_ job: Job, _ stream: [UInt8], layout: DeflateLayout, placement: DeflateLayout.Placement,
                        adler: UInt32) throws -> Deflated {
        let rowBytes = job.deflater.rowBytesAndPixelBytes.rowBytes
        let finished = try layout.finishingPieces(stream, placement: placement, firstRow: job.firstRow, rowBytes: { rows in
            try readScanlines(from: job.firstRowByte + rows.lowerBound * rowBytes, count: rows.count * rowBytes)
        }, recode: { rows, final in try recoded(job, rows: rows, final: final) })
        return Deflated(stream: finished.bytes, adler: finished.adler ?? adler) // recoded: the whole image's rows, unfiltered
    }

    /// `rows` of `job` (a piece) as `SegmentedZlib` codes a piece with more tokens than `PieceGuard` allows: zlib 6 primed
    /// with the window before it (the image's bytes up to 32 KiB back, all within the job's history).
    private func recoded(_ job: Job, rows: Range<Int>, final: Bool) throws -> PieceGuard.Recoded {
        let rowBytes = job.deflater.rowBytesAndPixelBytes.rowBytes, first = job.firstRowByte + rows.lowerBound * rowBytes
        let history = min((job.firstRow + rows.lowerBound) * rowBytes, 1 << Int(job.windowBits)), count = rows.count * rowBytes
        let bytes = try readScanlines(from: first - history, count: history + count)
        let recoded = bytes.withUnsafeBufferPointer { read in
            read.baseAddress.map { PieceGuard.recoded($0 + history, history: history, count: count, windowBits: job.windowBits, last: final,
                                                      unfiltering: job.deflater.filtersRows ? rowBytes : nil) }
                ?? PieceGuard.Recoded(status: Z_BUF_ERROR)
        }
        guard recoded.status == Z_OK else { throw InternalErrors.zlibFailed(status: recoded.status) }
        return recoded
    }

    /// One of the coder's three passes over the tokens left on the GPU.
    private func code(rows: Int, mode: Int, blockStarts: Int = 0) throws {
        for (binding, slot) in [Slot.tokens, .rowInfo, .codes, .out].enumerated() { try buffers.bind(slot.rawValue, to: binding) }
        try coder.use()
        try coder.set(["rows": rows, "mode": mode, "blockStarts": blockStarts, "probeIterations": 2])
        try coder.dispatch(groups: (rows + 63) / 64)
    }

    /// `words` words of the out buffer, zeroed on the GPU (`deflate_pack.comp`'s mode 3) for a pass
    /// that adds into them: the GPU thread neither makes nor sends them (a megabyte of zeros an HD
    /// call's stream was most of its own work).
    private func clear(words: Int) throws {
        try buffers.reserve(Slot.out.rawValue, words: max(1, words))
        try code(rows: max(1, words), mode: 3)
    }

    /// A dispatch of the token pass over `x` × `y` work groups, checked (for tests: a failure is one error).
    func dispatchChooser(x: Int, y: Int) throws {
        try chooser.use()
        try chooser.dispatch(x: x, y: y)
    }
}
