import CEGL
import CPNG

/// The token pass (`Shaders/deflate_tokens.comp`): each unit of rows' tokens, chosen on the GPU and
/// left there for the coding passes, and each job's Adler-32.
extension GPUDeflater {
    struct Chosen {
        var counts: [Int]
        /// Per row: where its first token is in `tokens` (a unit's rows' tokens are one after another).
        var firstTokens: [Int]
        var adler: UInt32
    }

    /// The token pass: leaves each row's tokens on the GPU (each job's rows one
    /// after another in `tokens`), returns each job's token counts and Adler-32.
    func choose(_ jobs: [Job]) throws -> [Result<Chosen, any Error>] {
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
        typealias Row = ShaderRecords.PlanRow
        typealias Unit = ShaderRecords.PlanUnit
        typealias Segment = ShaderRecords.PlanSegment
        typealias JobRecord = ShaderRecords.PlanJob
        let segmentsAt = Row.words * callRows, jobsAt = segmentsAt + Segment.words * segmentCount, unitsAt = jobsAt + JobRecord.words * jobs.count
        var plan = [UInt32](repeating: 0, count: unitsAt + Unit.words * unitCount), parts: [UInt32] = []
        var jobSegments: [Range<Int>] = [], jobTokenBase: [Int] = []
        jobSegments.reserveCapacity(jobs.count)
        jobTokenBase.reserveCapacity(jobs.count)
        // Where each wave of units starts: every `tableSlots` units that ask the matcher share the hash tables.
        var waves = [0], matchers = 0
        plan.withUnsafeMutableBufferPointer { plan in
            var tokenBase = 0, row = 0, segment = 0, unit = 0
            for (j, job) in jobs.enumerated() {
                let (rowBytes, pixelBytes) = job.deflater.rowBytesAndPixelBytes
                let copyRuns = job.deflater.partCount == 1, copies = chosenUnits[j].copies
                for invocation in chosenUnits[j].units {
                    plan[unitsAt + Unit.firstRow.at(unit)] = UInt32(row + invocation.lowerBound)
                    plan[unitsAt + Unit.rows.at(unit)] = UInt32(invocation.count)
                    // A copy run's row (the shader's `copyRun`) asks no matcher and has no table.
                    if !(copyRuns && copies[invocation.lowerBound].back > 0) {
                        if matchers > 0 && matchers % tableSlots == 0 { waves.append(unit) }
                        plan[unitsAt + Unit.tableAt.at(unit)] = UInt32(matchers % tableSlots * Self.tableWords)
                        matchers += 1
                    }
                    unit += 1
                }
                jobTokenBase.append(tokenBase)
                var rowStart = job.firstRowByte
                for copy in chosenUnits[j].copies {
                    // The copy's distance (≤ 32,768) and copy run ahead (≤ 261) share a word, and so do the job (fewer
                    // than 2^22: at most a job a row) and the copy run's reduced start (under 516).
                    plan[Row.firstByte.at(row)] = UInt32(rowStart)
                    plan[Row.firstToken.at(row)] = UInt32(tokenBase)
                    plan[Row.copy.at(row)] = UInt32(copy.back) | UInt32(copy.runAhead) << Self.runAheadShift
                    plan[Row.jobAndRunStart.at(row)] = UInt32(j << Self.runAtBits) | UInt32(copy.runAt)
                    tokenBase += rowBytes
                    rowStart += rowBytes
                    row += 1
                }
                let bytes = job.rows * rowBytes
                jobSegments.append(segment..<(segment + jobSegmentCounts[j]))
                for start in stride(from: 0, to: bytes, by: Self.segmentBytes) {
                    plan[segmentsAt + Segment.start.at(segment)] = UInt32(job.firstRowByte + start)
                    plan[segmentsAt + Segment.end.at(segment)] = UInt32(job.firstRowByte + min(bytes, start + Self.segmentBytes))
                    segment += 1
                }
                for (field, word) in [(JobRecord.rowBytes, rowBytes), (.pixelBytes, pixelBytes), (.hashBits, RepeatDeflater.hashBits(rowBytes: rowBytes)),
                                      (.oldest, job.oldest), (.partsAt, parts.count), (.partCount, job.deflater.partCount)] {
                    plan[jobsAt + field.at(j)] = UInt32(word)
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
        try buffers.reserve(Slot.hashes.rawValue, words: max(1, min(matchers, tableSlots) * Self.tableWords))
        for slot in [Slot.scanlines, .parts, .plan, .tokens, .counts, .adler, .hashes] { try buffers.bind(slot.rawValue, to: slot.rawValue) }
        try chooser.use()
        try chooser.set(["unitsAt": unitsAt, "segments": segmentCount, "segmentsAt": segmentsAt, "jobsAt": jobsAt, "mode": 0, "probeIterations": 2])
        for (from, end) in zip(waves, waves.dropFirst() + [unitCount]) {
            try chooser.set(["unitsFrom": from, "units": end])
            try chooser.dispatch(groups: (end - from + 63) / 64)
        }
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
}
