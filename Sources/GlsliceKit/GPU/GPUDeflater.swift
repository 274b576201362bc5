import CEGL
import CPNG
import Shaders

/// `--compression fast`'s deflate as compute passes (issue 43), giving the
/// CPU's bytes: `Shaders/deflate_tokens.comp` chooses each row's tokens (the
/// twin of `RepeatDeflater`'s row rule), one invocation per row, then the
/// Adler-32 sums of each 1 KiB; `Shaders/deflate_pack.comp` counts each block's
/// symbols, sizes each row's bits, and writes them. The CPU makes each block's code from the counts
/// (`BlockCode`) and places the rows (`DeflateLayout`), and reads back only the
/// stream, the per-row figures and the counts. Needs ES 3.1 (`GPUContext.hasCompute`).
///
/// Not `Sendable`: its GL objects belong to the context's thread.
final class GPUDeflater {
    let context: GPUContext
    private let chooser: ComputeProgram
    private let coder: ComputeProgram
    private let buffers: ShaderBuffers
    /// Rows one dispatch takes: 64 a group, and the 65,535 groups every ES 3.1 driver allows.
    static let maxRowsPerDispatch = 64 * 65535
    /// Bytes of scanlines one invocation sums for the Adler-32.
    static let segmentBytes = 1024
    /// What a pass writes for a row (or segment) that ran out of llvmpipe's loop iterations.
    private static let tooLong = UInt32.max

    /// The buffers' bindings in `deflate_tokens.comp`, then `deflate_pack.comp`'s.
    private enum Slot: Int, CaseIterable {
        case scanlines, parts, copies, tokens, counts, adler, rowInfo, codes, out
    }

    init(context: GPUContext) throws {
        guard context.hasCompute else { throw UnavailableErrors.noCompute(context.version) }
        self.context = context
        try context.makeCurrent()
        chooser = try ComputeProgram(ShaderSource.deflateTokens, name: "deflate_tokens.comp",
                                     uniforms: ["rowBytes", "pixelBytes", "rows", "firstRowByte", "hashBits", "mode", "segmentBytes", "probeIterations"])
        coder = try ComputeProgram(ShaderSource.deflatePack, name: "deflate_pack.comp", uniforms: ["rows", "rowBytes", "mode", "blockStarts", "probeIterations"])
        buffers = try ShaderBuffers(count: Slot.allCases.count)
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

    /// Each row's tokens for `rows` rows starting `firstRowByte` bytes into the
    /// scanlines, which hold before them every byte a match may reach (the
    /// image from its first byte, or 32 KiB at least). For tests.
    func tokens(_ deflater: RepeatDeflater, firstRowByte: Int, firstRow: Int, rows: Int) throws -> [[DeflateToken]] {
        let rowBytes = deflater.rowBytesAndPixelBytes.rowBytes
        let (counts, _) = try choose(deflater, firstRowByte: firstRowByte, firstRow: firstRow, rows: rows)
        let tokens = try buffers.read(Slot.tokens.rawValue, words: rows * rowBytes)
        return (0..<rows).map { r in tokens[(r * rowBytes)..<(r * rowBytes + counts[r])].map { DeflateToken(packed: $0) } }
    }

    /// The deflate stream of `rows` rows of the scanlines (see `tokens`), cut into pieces as
    /// `SegmentedZlib` cuts them, and the rows' Adler-32 (from 1). `endsImage`:
    /// the rows end the image (else they end where a piece is cut).
    func deflate(_ deflater: RepeatDeflater, firstRowByte: Int, firstRow: Int, rows: Int,
                 cuts: SegmentedZlib.Cuts = .standard, endsImage: Bool) throws -> (stream: [UInt8], adler: UInt32) {
        let rowBytes = deflater.rowBytesAndPixelBytes.rowBytes
        let (counts, sums) = try choose(deflater, firstRowByte: firstRowByte, firstRow: firstRow, rows: rows)
        var adler: UInt = 1
        for s in 0..<(sums.count / 2) {
            let length = min(Self.segmentBytes, rows * rowBytes - s * Self.segmentBytes)
            adler = adler32_combine(adler, UInt(sums[2 * s + 1]) << 16 | UInt(sums[2 * s]), length)
        }
        let layout = DeflateLayout(tokenCounts: counts, rowBytes: rowBytes, cuts: cuts, endsImage: endsImage)
        var rowInfo = [UInt32](repeating: 0, count: 3 * rows)
        for r in 0..<rows {
            rowInfo[3 * r] = UInt32(layout.firstToken[r])
            rowInfo[3 * r + 1] = UInt32(layout.pieceBlock[r])
        }
        // Counts, per block.
        let blocks = layout.blocks.count
        try rowInfo.withUnsafeBytes { try buffers.upload(Slot.rowInfo.rawValue, $0) }
        try buffers.zero(Slot.out.rawValue, words: blocks * 316)
        try code(rows: rows, rowBytes: rowBytes, mode: 0)
        let tallies = try buffers.read(Slot.out.rawValue, words: blocks * 316)
        let codes = (0..<blocks).map { b in
            BlockCode(literalCounts: tallies[(b * 316)..<(b * 316 + 286)].map(Int.init), distanceCounts: tallies[(b * 316 + 286)..<(b * 316 + 316)].map(Int.init))
        }
        var tables = [UInt32](repeating: 0, count: blocks * 320)
        for (b, code) in codes.enumerated() {
            for s in 0..<288 { tables[b * 320 + s] = code.literalCodes[s] | UInt32(code.literalLengths[s]) << 16 }
            for s in 0..<30 { tables[b * 320 + 288 + s] = code.distanceCodes[s] | UInt32(code.distanceLengths[s]) << 16 }
            if b > 0 { tables[b * 320 + 318] = UInt32(codes[b - 1].endBits + code.headBits) }
        }
        try tables.withUnsafeBytes { try buffers.upload(Slot.codes.rawValue, $0) }
        // Bits, per row, and where blocks begin inside rows.
        try buffers.zero(Slot.out.rawValue, words: rows + blocks)
        try code(rows: rows, rowBytes: rowBytes, mode: 1, blockStarts: rows)
        let sizes = try buffers.read(Slot.out.rawValue, words: rows + blocks)
        guard !sizes[0..<rows].contains(Self.tooLong) else { throw UnavailableErrors.gpuLoopLimit(context.renderer) }
        let placement = layout.place(codes: codes, bits: sizes[0..<rows].map(Int.init), startInRow: sizes[rows...].map(Int.init))
        guard placement.byteCount < 1 << 29 else { throw InternalErrors.deflateOverGPULimit(bytes: placement.byteCount) }
        // The bits.
        for r in 0..<rows { rowInfo[3 * r + 2] = UInt32(placement.rowBits[r]) }
        try rowInfo.withUnsafeBytes { try buffers.upload(Slot.rowInfo.rawValue, $0) }
        let words = placement.byteCount / 4 + 2
        try buffers.zero(Slot.out.rawValue, words: words)
        try code(rows: rows, rowBytes: rowBytes, mode: 2)
        let stream = try buffers.read(Slot.out.rawValue, words: words)
        return (stream.withUnsafeBufferPointer { layout.finish($0, placement: placement, codes: codes) }, UInt32(adler))
    }

    /// The token pass: leaves each row's tokens on the GPU, returns their counts and the rows' Adler-32 sums.
    private func choose(_ deflater: RepeatDeflater, firstRowByte: Int, firstRow: Int,
                        rows: Int) throws -> (counts: [Int], adler: [UInt32]) {
        guard rows <= Self.maxRowsPerDispatch else { throw InternalErrors.deflateOverGPULimit(bytes: rows * deflater.rowBytesAndPixelBytes.rowBytes) }
        let (rowBytes, pixelBytes) = deflater.rowBytesAndPixelBytes
        try context.makeCurrent()
        try deflater.packedParts.withUnsafeBytes { try buffers.upload(Slot.parts.rawValue, $0) }
        try deflater.copyBacks(firstRow: firstRow, rows: rows, history: firstRowByte).withUnsafeBytes { try buffers.upload(Slot.copies.rawValue, $0) }
        try buffers.reserve(Slot.tokens.rawValue, words: rows * rowBytes)
        try buffers.reserve(Slot.counts.rawValue, words: rows)
        try buffers.reserve(Slot.adler.rawValue, words: 2 * ((rows * rowBytes + Self.segmentBytes - 1) / Self.segmentBytes))
        for slot in [Slot.scanlines, .parts, .copies, .tokens, .counts, .adler] { try buffers.bind(slot.rawValue, to: slot.rawValue) }
        try chooser.use()
        try chooser.set(["rowBytes": rowBytes, "pixelBytes": pixelBytes, "rows": rows, "firstRowByte": firstRowByte,
                         "hashBits": RepeatDeflater.hashBits(rowBytes: rowBytes), "mode": 0, "segmentBytes": Self.segmentBytes, "probeIterations": 2])
        try chooser.dispatch(groups: (rows + 63) / 64)
        let segments = (rows * rowBytes + Self.segmentBytes - 1) / Self.segmentBytes
        try chooser.set(["mode": 1])
        try chooser.dispatch(groups: (segments + 63) / 64)
        let counts = try buffers.read(Slot.counts.rawValue, words: rows)
        let sums = try buffers.read(Slot.adler.rawValue, words: 2 * segments)
        guard !counts.contains(Self.tooLong) && !sums.contains(Self.tooLong) else { throw UnavailableErrors.gpuLoopLimit(context.renderer) }
        return (counts.map(Int.init), sums)
    }

    /// One of the coder's three passes over the tokens left on the GPU.
    private func code(rows: Int, rowBytes: Int, mode: Int, blockStarts: Int = 0) throws {
        for (binding, slot) in [Slot.tokens, .counts, .rowInfo, .codes, .out].enumerated() { try buffers.bind(slot.rawValue, to: binding) }
        try coder.use()
        try coder.set(["rows": rows, "rowBytes": rowBytes, "mode": mode, "blockStarts": blockStarts, "probeIterations": 2])
        try coder.dispatch(groups: (rows + 63) / 64)
    }

    /// A dispatch of the token pass over `x` × `y` work groups, checked (for tests: a failure is one error).
    func dispatchChooser(x: Int, y: Int) throws {
        try chooser.use()
        try chooser.dispatch(x: x, y: y)
    }
}
