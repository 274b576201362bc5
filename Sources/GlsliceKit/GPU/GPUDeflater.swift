import CEGL
import CPNG
import Shaders

/// glslice's own deflate (the default compression) as compute passes (issue 43), giving the
/// CPU's bytes: `Shaders/deflate_tokens.comp` chooses each row's tokens (the
/// twin of `RepeatDeflater`'s rule), one invocation per unit of rows, then the
/// Adler-32 sums of each 4 KiB; `Shaders/deflate_pack.comp` counts each block's
/// symbols, sizes each row's bits, and writes them. The CPU makes each block's code from the counts
/// (`BlockCode`) and places the rows (`DeflateLayout`), and reads back only the
/// stream, the per-row figures and the counts. One call takes many jobs (an
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
    }

    /// A job's deflate stream, cut into pieces as `SegmentedZlib` cuts them, and its rows' Adler-32 (from 1).
    struct Deflated {
        var stream: [UInt8]
        var adler: UInt32
    }

    let context: GPUContext
    private let chooser: ComputeProgram
    private let coder: ComputeProgram
    private let buffers: ShaderBuffers
    /// Rows one call takes at most: 64 a work group, 65,535 groups (their descriptors, 16 bytes a row, stay under 64 MiB).
    static let maxRowsPerDispatch = 64 * 65535
    /// Bytes of scanlines one invocation sums for the Adler-32.
    static let segmentBytes = 4096
    /// What a pass writes for a row (or segment) that ran out of llvmpipe's loop iterations.
    private static let tooLong = UInt32.max

    /// The buffers' bindings in `deflate_tokens.comp`, then `deflate_pack.comp`'s.
    private enum Slot: Int, CaseIterable {
        case scanlines, parts, plan, tokens, counts, adler, rowInfo, codes, out
    }

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
        chooser = try ComputeProgram(ShaderSource.deflateTokens, name: "deflate_tokens.comp",
                                     uniforms: ["units", "unitsAt", "segments", "segmentsAt", "jobsAt", "mode", "probeIterations"])
        coder = try ComputeProgram(ShaderSource.deflatePack, name: "deflate_pack.comp", uniforms: ["rows", "mode", "blockStarts", "probeIterations"])
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
        let bytes = words.flatMap { word in [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: word >> $0) } }
        return Array(bytes[(offset - 4 * first)..<(offset - 4 * first + count)])
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
        var call: [Int] = [], rows = 0, bytes = 0
        func run() throws {
            guard !call.isEmpty else { return }
            for (j, result) in zip(call, try deflateCall(call.map { jobs[$0] })) { results[j] = result }
            call.removeAll()
            (rows, bytes) = (0, 0)
        }
        for (j, job) in jobs.enumerated() where results[j] == nil {
            let jobBytes = job.rows * job.deflater.rowBytesAndPixelBytes.rowBytes
            if rows + job.rows > Self.maxRowsPerDispatch || bytes + jobBytes > dispatchBytes { try run() }
            call.append(j)
            rows += job.rows
            bytes += jobBytes
        }
        try run()
        return results.map { $0 ?? .failure(InternalErrors.noAnswer()) }
    }

    /// One call's passes over jobs within every limit together.
    private func deflateCall(_ jobs: [Job]) throws -> [Result<Deflated, any Error>] {
        var results: [Result<Deflated, any Error>?] = jobs.map { _ in nil }
        let chosen = try choose(jobs)
        // Per job: its layout, its blocks' first index, its rows' first index.
        var layouts: [DeflateLayout?] = [], blockBase: [Int] = [], rowBase: [Int] = [], adlers: [UInt32] = []
        var blocks = 0, rows = 0
        for (j, job) in jobs.enumerated() {
            blockBase.append(blocks)
            rowBase.append(rows)
            rows += job.rows
            switch chosen[j] {
            case .success(let chosen):
                let layout = DeflateLayout(tokenCounts: chosen.counts, rowBytes: job.deflater.rowBytesAndPixelBytes.rowBytes,
                                           cuts: job.cuts, endsImage: job.endsImage)
                layouts.append(layout)
                adlers.append(chosen.adler)
                blocks += layout.blocks.count
            case .failure(let error):
                layouts.append(nil)
                adlers.append(0)
                results[j] = .failure(error)
            }
        }
        // Per row: first token in its piece, piece's first block, bit (mode 2), first token in `tokens`, count.
        var rowInfo = [UInt32](repeating: 0, count: 5 * max(1, rows))
        rowInfo.withUnsafeMutableBufferPointer { rowInfo in
            for (j, job) in jobs.enumerated() {
                guard let layout = layouts[j], case .success(let chosen) = chosen[j] else { continue }
                for r in 0..<job.rows {
                    let at = 5 * (rowBase[j] + r)
                    rowInfo[at + 3] = UInt32(chosen.firstTokens[r])
                    rowInfo[at] = UInt32(layout.firstToken[r])
                    rowInfo[at + 1] = UInt32(blockBase[j] + layout.pieceBlock[r])
                    rowInfo[at + 4] = UInt32(chosen.counts[r])
                }
            }
        }
        // Counts, per block.
        try rowInfo.withUnsafeBytes { try buffers.upload(Slot.rowInfo.rawValue, $0) }
        try buffers.zero(Slot.out.rawValue, words: blocks * 316)
        try code(rows: rows, mode: 0)
        let tallies = try buffers.read(Slot.out.rawValue, words: blocks * 316)
        let codes = (0..<blocks).map { b in
            BlockCode(literalCounts: tallies[(b * 316)..<(b * 316 + 286)].map(Int.init), distanceCounts: tallies[(b * 316 + 286)..<(b * 316 + 316)].map(Int.init))
        }
        var tables = [UInt32](repeating: 0, count: max(1, blocks) * 320)
        for (b, code) in codes.enumerated() {
            for s in 0..<288 { tables[b * 320 + s] = code.literalCodes[s] | UInt32(code.literalLengths[s]) << 16 }
            for s in 0..<30 { tables[b * 320 + 288 + s] = code.distanceCodes[s] | UInt32(code.distanceLengths[s]) << 16 }
            if b > 0 { tables[b * 320 + 318] = UInt32(codes[b - 1].endBits + code.headBits) }
        }
        try tables.withUnsafeBytes { try buffers.upload(Slot.codes.rawValue, $0) }
        // Bits, per row, and where blocks begin inside rows.
        try buffers.zero(Slot.out.rawValue, words: rows + blocks)
        try code(rows: rows, mode: 1, blockStarts: rows)
        let sizes = try buffers.read(Slot.out.rawValue, words: rows + blocks)
        // Each job's bits from a word of its own.
        var placed: [(layout: DeflateLayout, placement: DeflateLayout.Placement, word: Int)?] = jobs.map { _ in nil }, words = 0
        for (j, job) in jobs.enumerated() {
            guard let layout = layouts[j] else { continue }
            let jobRows = rowBase[j]..<(rowBase[j] + job.rows), jobBlocks = blockBase[j]..<(blockBase[j] + layout.blocks.count)
            if sizes[jobRows].contains(Self.tooLong) {
                results[j] = .failure(UnavailableErrors.gpuLoopLimit(context.renderer))
            } else {
                let placement = layout.place(codes: Array(codes[jobBlocks]), bits: sizes[jobRows].map(Int.init),
                                             startInRow: sizes[(rows + jobBlocks.lowerBound)..<(rows + jobBlocks.upperBound)].map(Int.init))
                // Bit offsets are 32-bit: the call's streams together stay under 512 MiB (checked before they are written).
                let end = 4 * (words + placement.byteCount / 4 + 2)
                if end >= 1 << 29 {
                    results[j] = .failure(UnavailableErrors.gpuEncodeOverLimit(.streamBytes, end, limit: 1 << 29))
                } else {
                    placed[j] = (layout, placement, words)
                    for r in 0..<job.rows { rowInfo[5 * (rowBase[j] + r) + 2] = UInt32(32 * words + placement.rowBits[r]) }
                    words += placement.byteCount / 4 + 2
                }
            }
            if placed[j] == nil {
                for r in jobRows { rowInfo[5 * r + 4] = 0 } // left out of the bits
            }
        }
        // The bits.
        try rowInfo.withUnsafeBytes { try buffers.upload(Slot.rowInfo.rawValue, $0) }
        try buffers.zero(Slot.out.rawValue, words: words)
        try code(rows: rows, mode: 2)
        let stream = try buffers.read(Slot.out.rawValue, words: words)
        stream.withUnsafeBufferPointer { stream in
            for (j, place) in placed.enumerated() {
                guard let (layout, placement, word) = place else { continue }
                let mine = UnsafeBufferPointer(rebasing: stream[word..<(word + placement.byteCount / 4 + 2)])
                let codes = Array(codes[blockBase[j]..<(blockBase[j] + layout.blocks.count)])
                results[j] = .success(Deflated(stream: layout.finish(mine, placement: placement, codes: codes), adler: adlers[j]))
            }
        }
        // Every job has its result: failed before the bits, or placed.
        return results.compactMap { $0 }
    }

    private struct Chosen {
        var counts: [Int]
        /// Per row: where its first token is in `tokens` (a unit's rows' tokens are one after another).
        var firstTokens: [Int]
        var adler: UInt32
    }

    /// The token pass: leaves each row's tokens on the GPU (each job's rows one
    /// after another in `tokens`), returns each job's token counts and Adler-32.
    private func choose(_ jobs: [Job]) throws -> [Result<Chosen, any Error>] {
        // Every 32-bit figure below is within these (`deflate` cuts its calls by them; `tokens` is one job).
        let callRows = jobs.reduce(0) { $0 + $1.rows }, callBytes = jobs.reduce(0) { $0 + $1.rows * $1.deflater.rowBytesAndPixelBytes.rowBytes }
        guard callRows <= Self.maxRowsPerDispatch else { throw UnavailableErrors.gpuEncodeOverLimit(.rows, callRows, limit: Self.maxRowsPerDispatch) }
        guard callBytes <= Self.maxDispatchBytes else {
            throw UnavailableErrors.gpuEncodeOverLimit(.scanlineBytes, callBytes, limit: Self.maxDispatchBytes)
        }
        let end = jobs.map { $0.firstRowByte + $0.rows * $0.deflater.rowBytesAndPixelBytes.rowBytes }.max() ?? 0
        guard end <= Int(UInt32.max) else { throw UnavailableErrors.gpuEncodeOverLimit(.scanlineEnd, end, limit: Int(UInt32.max)) }
        // The call's records in one array, each word written once where it goes: this runs on the GL thread (issue 52).
        let chosenUnits = jobs.map { job in
            let rowBytes = job.deflater.rowBytesAndPixelBytes.rowBytes
            return job.deflater.invocations(firstRow: job.firstRow, rows: job.rows, history: job.firstRowByte - job.oldest,
                                            pieceRows: job.cuts.rowsPerPiece(rowBytes: rowBytes))
        }
        let jobSegmentCounts = jobs.map { ($0.rows * $0.deflater.rowBytesAndPixelBytes.rowBytes + Self.segmentBytes - 1) / Self.segmentBytes }
        let segmentCount = jobSegmentCounts.reduce(0, +), unitCount = chosenUnits.reduce(0) { $0 + $1.units.count }
        let segmentsAt = 4 * callRows, jobsAt = segmentsAt + 2 * segmentCount, unitsAt = jobsAt + 8 * jobs.count
        var plan = [UInt32](repeating: 0, count: unitsAt + 2 * unitCount), parts: [UInt32] = []
        var jobSegments: [Range<Int>] = [], jobTokenBase: [Int] = []
        jobSegments.reserveCapacity(jobs.count)
        jobTokenBase.reserveCapacity(jobs.count)
        plan.withUnsafeMutableBufferPointer { plan in
            var tokenBase = 0, row = 0, segment = 0, unit = 0
            for (j, job) in jobs.enumerated() {
                let (rowBytes, pixelBytes) = job.deflater.rowBytesAndPixelBytes
                for invocation in chosenUnits[j].units {
                    plan[unitsAt + 2 * unit] = UInt32(row + invocation.lowerBound)
                    plan[unitsAt + 2 * unit + 1] = UInt32(invocation.count)
                    unit += 1
                }
                jobTokenBase.append(tokenBase)
                var rowStart = job.firstRowByte
                for copy in chosenUnits[j].copies {
                    // The copy's distance (≤ 32,768) and copy run ahead (≤ 261) share a word, and so do the job (fewer
                    // than 2^22: at most a job a row) and the copy run's reduced start (under 516).
                    plan[4 * row] = UInt32(rowStart)
                    plan[4 * row + 1] = UInt32(tokenBase)
                    plan[4 * row + 2] = UInt32(copy.back) | UInt32(copy.runAhead) << 16
                    plan[4 * row + 3] = UInt32(j << 10) | UInt32(copy.runAt)
                    tokenBase += rowBytes
                    rowStart += rowBytes
                    row += 1
                }
                let bytes = job.rows * rowBytes
                jobSegments.append(segment..<(segment + jobSegmentCounts[j]))
                for start in stride(from: 0, to: bytes, by: Self.segmentBytes) {
                    plan[segmentsAt + 2 * segment] = UInt32(job.firstRowByte + start)
                    plan[segmentsAt + 2 * segment + 1] = UInt32(job.firstRowByte + min(bytes, start + Self.segmentBytes))
                    segment += 1
                }
                for (k, word) in [rowBytes, pixelBytes, RepeatDeflater.hashBits(rowBytes: rowBytes), job.oldest, parts.count].enumerated() {
                    plan[jobsAt + 8 * j + k] = UInt32(word)
                }
                job.deflater.appendPackedParts(to: &parts)
            }
        }
        let jobUnits = chosenUnits.map(\.units), rows = callRows
        try context.makeCurrent()
        try parts.withUnsafeBytes { try buffers.upload(Slot.parts.rawValue, $0) }
        try plan.withUnsafeBytes { try buffers.upload(Slot.plan.rawValue, $0) }
        try buffers.reserve(Slot.tokens.rawValue, words: callBytes)
        try buffers.reserve(Slot.counts.rawValue, words: rows)
        try buffers.reserve(Slot.adler.rawValue, words: 2 * segmentCount)
        for slot in [Slot.scanlines, .parts, .plan, .tokens, .counts, .adler] { try buffers.bind(slot.rawValue, to: slot.rawValue) }
        try chooser.use()
        try chooser.set(["units": unitCount, "unitsAt": unitsAt, "segments": segmentCount, "segmentsAt": segmentsAt,
                         "jobsAt": jobsAt, "mode": 0, "probeIterations": 2])
        try chooser.dispatch(groups: (unitCount + 63) / 64)
        try chooser.set(["mode": 1])
        try chooser.dispatch(groups: (segmentCount + 63) / 64)
        let counts = try buffers.read(Slot.counts.rawValue, words: rows)
        let sums = try buffers.read(Slot.adler.rawValue, words: 2 * segmentCount)
        var first = 0
        return jobs.enumerated().map { j, job in
            defer { first += job.rows }
            let rowBytes = job.deflater.rowBytesAndPixelBytes.rowBytes, bytes = job.rows * rowBytes
            var adler: UInt = 1
            for s in jobSegments[j] {
                guard sums[2 * s + 1] != Self.tooLong else { return .failure(UnavailableErrors.gpuLoopLimit(context.renderer)) }
                let length = min(Self.segmentBytes, bytes - (s - jobSegments[j].lowerBound) * Self.segmentBytes)
                adler = adler32_combine(adler, UInt(sums[2 * s + 1]) << 16 | UInt(sums[2 * s]), length)
            }
            var chosen = Chosen(counts: [Int](repeating: 0, count: job.rows), firstTokens: [Int](repeating: 0, count: job.rows), adler: UInt32(adler))
            for r in 0..<job.rows {
                guard counts[first + r] != Self.tooLong else { return .failure(UnavailableErrors.gpuLoopLimit(context.renderer)) }
                chosen.counts[r] = Int(counts[first + r])
            }
            for unit in jobUnits[j] {
                var at = jobTokenBase[j] + unit.lowerBound * rowBytes // the unit's first row's room
                for r in unit {
                    chosen.firstTokens[r] = at
                    at += chosen.counts[r]
                }
            }
            return .success(chosen)
        }
    }

    /// One of the coder's three passes over the tokens left on the GPU.
    private func code(rows: Int, mode: Int, blockStarts: Int = 0) throws {
        for (binding, slot) in [Slot.tokens, .rowInfo, .codes, .out].enumerated() { try buffers.bind(slot.rawValue, to: binding) }
        try coder.use()
        try coder.set(["rows": rows, "mode": mode, "blockStarts": blockStarts, "probeIterations": 2])
        try coder.dispatch(groups: (rows + 63) / 64)
    }

    /// A dispatch of the token pass over `x` × `y` work groups, checked (for tests: a failure is one error).
    func dispatchChooser(x: Int, y: Int) throws {
        try chooser.use()
        try chooser.dispatch(x: x, y: y)
    }
}
