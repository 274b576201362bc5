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
        let call = try TokenCall(jobs, tableSlots: tableSlots)
        try dispatch(call)
        let counts = try buffers.read(Slot.counts.rawValue, words: call.rows)
        let sums = try buffers.read(Slot.adler.rawValue, words: 2 * call.segmentCount)
        let seams = try buffers.read(Slot.seams.rawValue, words: Self.seamWords * max(1, call.unitCount))
        var first = 0
        return jobs.enumerated().map { j, job in
            defer { first += job.rows }
            return chosen(job, units: call.jobUnits[j], firstUnit: call.jobFirstUnit[j], segments: call.jobSegments[j], tokenBase: call.jobTokenBase[j],
                          counts: counts[first..<(first + job.rows)], sums: sums, seams: seams)
        }
    }

    /// The token pass over a call's records: its units in waves that share the hash tables, then the
    /// Adler-32 sums of its segments.
    private func dispatch(_ call: TokenCall) throws {
        try context.makeCurrent()
        try call.parts.withUnsafeBytes { try buffers.upload(Slot.parts.rawValue, $0) }
        try call.plan.withUnsafeBytes { try buffers.upload(Slot.plan.rawValue, $0) }
        try buffers.reserve(Slot.tokens.rawValue, words: call.bytes)
        try buffers.reserve(Slot.counts.rawValue, words: call.rows)
        try buffers.reserve(Slot.adler.rawValue, words: 2 * call.segmentCount)
        try buffers.reserve(Slot.hashes.rawValue, words: max(1, min(call.matchers, tableSlots) * Self.tableWords))
        try buffers.reserve(Slot.seams.rawValue, words: Self.seamWords * max(1, call.unitCount))
        for slot in [Slot.scanlines, .parts, .plan, .tokens, .counts, .adler, .hashes] { try buffers.bind(slot.rawValue, to: slot.rawValue) }
        try buffers.bind(Slot.seams.rawValue, to: 7)
        try chooser.use()
        try chooser.set(["unitsAt": call.unitsAt, "segments": call.segmentCount, "segmentsAt": call.segmentsAt, "jobsAt": call.jobsAt,
                         "mode": 0, "probeIterations": 2])
        for (from, end) in zip(call.waves, call.waves.dropFirst() + [call.unitCount]) {
            try chooser.set(["unitsFrom": from, "units": end])
            try chooser.dispatch(groups: (end - from + 63) / 64)
        }
        // The seams (`RepeatDeflater.seamJoins`): a unit's first run joined to the unit before's last.
        try chooser.set(["mode": 2, "units": call.unitCount])
        try chooser.dispatch(groups: (call.unitCount + 63) / 64)
        try chooser.set(["mode": 1])
        try chooser.dispatch(groups: (call.segmentCount + 63) / 64)
    }

    /// Words a unit's seam record takes (`ShaderRecords.Seam`).
    static let seamWords = ShaderRecords.Seam.words

    /// A job's counts, tokens' places and Adler-32 from what the pass wrote, or the loop limit. Where a
    /// unit's first run was joined to the unit before's last (the seam pass), the joined run's tokens
    /// are that unit's last (counted in the row its last run started in), and the unit's own first
    /// tokens are skipped.
    private func chosen(_ job: Job, units: [Range<Int>], firstUnit: Int, segments: Range<Int>, tokenBase: Int, counts: ArraySlice<UInt32>,
                        sums: [UInt32], seams: [UInt32]) -> Result<Chosen, any Error> {
        let rowBytes = job.deflater.rowBytesAndPixelBytes.rowBytes, bytes = job.rows * rowBytes
        var adler: UInt = 1
        for s in segments {
            guard sums[2 * s + 1] != Self.tooLong else { return .failure(UnavailableErrors.gpuLoopLimit(context.renderer)) }
            let length = min(Self.segmentBytes, bytes - (s - segments.lowerBound) * Self.segmentBytes)
            adler = adler32_combine(adler, UInt(sums[2 * s + 1]) << 16 | UInt(sums[2 * s]), length)
        }
        var chosen = Chosen(counts: [Int](repeating: 0, count: job.rows), firstTokens: [Int](repeating: 0, count: job.rows), adler: UInt32(adler))
        for (r, count) in counts.enumerated() {
            guard count != Self.tooLong else { return .failure(UnavailableErrors.gpuLoopLimit(context.renderer)) }
            chosen.counts[r] = Int(count)
        }
        var skip = [Int](repeating: 0, count: units.count)
        for k in units.indices.dropFirst() {
            typealias Seam = ShaderRecords.Seam
            let unit = firstUnit + k
            let joined = seams[Seam.joined.at(unit)]
            guard joined != Self.tooLong else { return .failure(UnavailableErrors.gpuLoopLimit(context.renderer)) }
            guard joined > 0 else { continue }
            // The unit before: its tokens up to its last run's first, then the joined run's.
            let lastFrom = Int(seams[Seam.lastFrom.at(unit - 1)])
            var kept = 0
            for r in units[k - 1] {
                if kept + chosen.counts[r] > lastFrom || r == units[k - 1].upperBound - 1 {
                    chosen.counts[r] = lastFrom - kept + Int(joined)
                    for later in (r + 1)..<units[k - 1].upperBound { chosen.counts[later] = 0 }
                    break
                }
                kept += chosen.counts[r]
            }
            skip[k] = Int(seams[Seam.firstTokens.at(unit)])
        }
        for (k, unit) in units.enumerated() where skip[k] > 0 {
            // This unit's first run went into the joined one: its tokens skipped, from its first row on.
            var left = skip[k]
            for r in unit where left > 0 {
                let taken = min(left, chosen.counts[r])
                chosen.counts[r] -= taken
                left -= taken
            }
        }
        for (k, unit) in units.enumerated() {
            var at = tokenBase + unit.lowerBound * rowBytes + skip[k] // the unit's first row's room
            for r in unit {
                chosen.firstTokens[r] = at
                at += chosen.counts[r]
            }
        }
        return .success(chosen)
    }
}
