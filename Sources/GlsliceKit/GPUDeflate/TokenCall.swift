/// One token pass's records, laid out on the CPU before any GL call (this runs on the GL thread:
/// issue 52): the call's rows, segments, jobs and units in one array, each word written once where
/// it goes, and the rows' parts.
struct TokenCall {
    typealias Row = ShaderRecords.PlanRow
    typealias Unit = ShaderRecords.PlanUnit
    typealias Segment = ShaderRecords.PlanSegment
    typealias JobRecord = ShaderRecords.PlanJob

    var plan: [UInt32]
    var parts: [UInt32] = []
    let rows: Int, bytes: Int, segmentCount: Int, unitCount: Int
    let segmentsAt: Int, jobsAt: Int, unitsAt: Int
    /// Where each wave of units starts: every `tableSlots` units that ask the matcher share the hash tables.
    var waves = [0]
    var matchers = 0
    var jobSegments: [Range<Int>] = [], jobTokenBase: [Int] = [], jobUnits: [[Range<Int>]], jobFirstUnit: [Int] = []

    init(_ jobs: [GPUDeflater.Job], tableSlots: Int) throws {
        // Every 32-bit figure below is within these (`deflate` cuts its calls by them; `tokens` is one job).
        rows = jobs.reduce(0) { $0 + $1.rows }
        bytes = jobs.reduce(0) { $0 + $1.rows * $1.deflater.rowBytesAndPixelBytes.rowBytes }
        guard rows <= GPUDeflater.maxRowsPerDispatch else { throw UnavailableErrors.gpuEncodeOverLimit(.rows, rows, limit: GPUDeflater.maxRowsPerDispatch) }
        guard bytes <= GPUDeflater.maxDispatchBytes else {
            throw UnavailableErrors.gpuEncodeOverLimit(.scanlineBytes, bytes, limit: GPUDeflater.maxDispatchBytes)
        }
        let end = jobs.map { $0.firstRowByte + $0.rows * $0.deflater.rowBytesAndPixelBytes.rowBytes }.max() ?? 0
        guard end <= Int(UInt32.max) else { throw UnavailableErrors.gpuEncodeOverLimit(.scanlineEnd, end, limit: Int(UInt32.max)) }
        let invocations = jobs.map { job in
            job.deflater.invocations(firstRow: job.firstRow, rows: job.rows, history: job.firstRowByte - job.oldest,
                                     pieceRows: job.cuts.rowsPerPiece(rowBytes: job.deflater.rowBytesAndPixelBytes.rowBytes))
        }
        let segmentCounts = jobs.map { ($0.rows * $0.deflater.rowBytesAndPixelBytes.rowBytes + GPUDeflater.segmentBytes - 1) / GPUDeflater.segmentBytes }
        segmentCount = segmentCounts.reduce(0, +)
        unitCount = invocations.reduce(0) { $0 + $1.units.count }
        jobUnits = invocations.map(\.units)
        segmentsAt = Row.words * rows
        jobsAt = segmentsAt + Segment.words * segmentCount
        unitsAt = jobsAt + JobRecord.words * jobs.count
        plan = [UInt32](repeating: 0, count: unitsAt + Unit.words * unitCount)
        jobSegments.reserveCapacity(jobs.count)
        jobTokenBase.reserveCapacity(jobs.count)
        var cursor = Cursor()
        for (j, job) in jobs.enumerated() {
            add(job, j, invocations[j], segments: segmentCounts[j], tableSlots: tableSlots, at: &cursor)
        }
    }

    /// Where the next row, segment, unit and token go.
    struct Cursor {
        var tokenBase = 0, row = 0, segment = 0, unit = 0
    }

    /// Job `j`'s records: its units, its rows, its segments and its own record, and its parts.
    private mutating func add(_ job: GPUDeflater.Job, _ j: Int, _ invocations: (copies: [RepeatDeflater.RowCopy], units: [Range<Int>], joins: [Bool]),
                              segments: Int, tableSlots: Int, at cursor: inout Cursor) {
        let (rowBytes, pixelBytes) = job.deflater.rowBytesAndPixelBytes
        let copyRuns = job.deflater.partCount == 1, copies = invocations.copies
        let (unitsAt, segmentsAt, jobsAt, partsAt) = (self.unitsAt, self.segmentsAt, self.jobsAt, parts.count)
        // The records out of `self` while they are written (no copy), so the other fields may change meanwhile.
        var records: [UInt32] = []
        swap(&records, &plan)
        defer { swap(&records, &plan) }
        jobFirstUnit.append(cursor.unit)
        records.withUnsafeMutableBufferPointer { plan in
            for (k, invocation) in invocations.units.enumerated() {
                plan[unitsAt + Unit.firstRow.at(cursor.unit)] = UInt32(cursor.row + invocation.lowerBound)
                plan[unitsAt + Unit.rows.at(cursor.unit)] = UInt32(invocation.count)
                plan[unitsAt + Unit.joins.at(cursor.unit)] = invocations.joins[k] ? 1 : 0
                // A copy run's row (the shader's `copyRun`) asks no matcher and has no table.
                if !(copyRuns && copies[invocation.lowerBound].back > 0) {
                    if matchers > 0 && matchers % tableSlots == 0 { waves.append(cursor.unit) }
                    plan[unitsAt + Unit.tableAt.at(cursor.unit)] = UInt32(matchers % tableSlots * GPUDeflater.tableWords)
                    matchers += 1
                }
                cursor.unit += 1
            }
            jobTokenBase.append(cursor.tokenBase)
            var rowStart = job.firstRowByte
            for copy in copies {
                // The copy's distance (≤ 32,768) and copy run ahead (≤ 261) share a word, and so do the job (fewer
                // than 2^22: at most a job a row) and the copy run's reduced start (under 516).
                plan[Row.firstByte.at(cursor.row)] = UInt32(rowStart)
                plan[Row.firstToken.at(cursor.row)] = UInt32(cursor.tokenBase)
                plan[Row.copy.at(cursor.row)] = UInt32(copy.back) | UInt32(copy.runAhead) << GPUDeflater.runAheadShift
                plan[Row.jobAndRunStart.at(cursor.row)] = UInt32(j << GPUDeflater.runAtBits) | UInt32(copy.runAt)
                cursor.tokenBase += rowBytes
                rowStart += rowBytes
                cursor.row += 1
            }
            let bytes = job.rows * rowBytes
            jobSegments.append(cursor.segment..<(cursor.segment + segments))
            for start in stride(from: 0, to: bytes, by: GPUDeflater.segmentBytes) {
                plan[segmentsAt + Segment.start.at(cursor.segment)] = UInt32(job.firstRowByte + start)
                plan[segmentsAt + Segment.end.at(cursor.segment)] = UInt32(job.firstRowByte + min(bytes, start + GPUDeflater.segmentBytes))
                cursor.segment += 1
            }
            for (field, word) in [(JobRecord.rowBytes, rowBytes), (.pixelBytes, pixelBytes), (.hashBits, RepeatDeflater.hashBits(rowBytes: rowBytes)),
                                  (.oldest, job.oldest), (.partsAt, partsAt), (.partCount, job.deflater.partCount)] {
                plan[jobsAt + field.at(j)] = UInt32(word)
            }
        }
        job.deflater.appendPackedParts(to: &parts)
    }
}
