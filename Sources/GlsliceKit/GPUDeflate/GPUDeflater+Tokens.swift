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
        var first = 0
        return jobs.enumerated().map { j, job in
            defer { first += job.rows }
            return chosen(job, units: call.jobUnits[j], segments: call.jobSegments[j], tokenBase: call.jobTokenBase[j],
                          counts: counts[first..<(first + job.rows)], sums: sums)
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
        for slot in [Slot.scanlines, .parts, .plan, .tokens, .counts, .adler, .hashes] { try buffers.bind(slot.rawValue, to: slot.rawValue) }
        try chooser.use()
        try chooser.set(["unitsAt": call.unitsAt, "segments": call.segmentCount, "segmentsAt": call.segmentsAt, "jobsAt": call.jobsAt,
                         "mode": 0, "probeIterations": 2])
        for (from, end) in zip(call.waves, call.waves.dropFirst() + [call.unitCount]) {
            try chooser.set(["unitsFrom": from, "units": end])
            try chooser.dispatch(groups: (end - from + 63) / 64)
        }
        try chooser.set(["mode": 1])
        try chooser.dispatch(groups: (call.segmentCount + 63) / 64)
    }

    /// A job's counts, tokens' places and Adler-32 from what the pass wrote, or the loop limit.
    private func chosen(_ job: Job, units: [Range<Int>], segments: Range<Int>, tokenBase: Int, counts: ArraySlice<UInt32>,
                        sums: [UInt32]) -> Result<Chosen, any Error> {
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
        for unit in units {
            var at = tokenBase + unit.lowerBound * rowBytes // the unit's first row's room
            for r in unit {
                chosen.firstTokens[r] = at
                at += chosen.counts[r]
            }
        }
        return .success(chosen)
    }
}
