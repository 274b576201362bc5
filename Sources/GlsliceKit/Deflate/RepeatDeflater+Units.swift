/// What a GPU invocation needs of a `RepeatDeflater`'s rows (`GPUDeflater`): its units of rows,
/// each row's planned copy, and the row's parts as words.
extension RepeatDeflater {
    /// The rows `0..<backs.count` in units, each chosen by one GPU invocation with its
    /// state carried from row to row (issue 51): a copy run (`RowCopy`) that starts a unit
    /// is a unit of its own; other rows go together while their bytes stay within `unitBytes`
    /// (6 KiB), never across a piece's start (every `pieceRows` rows) or one of its `PieceGuard`
    /// checkpoints (so both twins count the tokens before each alike). A copy run met there that
    /// is shorter than a token (258 bytes) stays with them: their match runs on through it where
    /// its rows agree, where a unit of its own would end that match and start another (round six:
    /// a 2-px `round` strip alternated short runs with other rows, 14 times zlib's bytes; 3.4
    /// now). A row's tokens are those that start in it.
    /// A copy run of fewer bytes than this joins the unit it meets (`units`): one token's most.
    static let shortRun = 258

    func units(backs: [Int32], pieceRows: Int) -> [Range<Int>] {
        let runs = parts.count == 1, rows = backs.count, unitRows = max(1, Self.unitBytes / rowBytes)
        var units: [Range<Int>] = []
        var start = 0, checkpointsFrom = -1, checkpoints: [PieceGuard.Checkpoint] = []
        while start < rows {
            var end = start + 1
            let pieceStart = start / pieceRows * pieceRows
            if pieceStart != checkpointsFrom {
                (checkpointsFrom, checkpoints) = (pieceStart, PieceGuard.checkpoints(pieceRows: min(pieceRows, rows - pieceStart), rowBytes: rowBytes))
            }
            // The piece's end, or its next checkpoint.
            let pieceEnd = pieceStart + (checkpoints.first { pieceStart + $0.rows > start }?.rows ?? min(pieceRows, rows - pieceStart))
            if runs, backs[start] > 0 {
                while end < pieceEnd, backs[end] == backs[start] { end += 1 }
            } else {
                while end < pieceEnd, end - start < unitRows {
                    guard runs, backs[end] > 0 else {
                        end += 1
                        continue
                    }
                    var runEnd = end + 1
                    while runEnd < pieceEnd, backs[runEnd] == backs[end], (runEnd - end) * rowBytes < Self.shortRun { runEnd += 1 }
                    if (runEnd - end) * rowBytes >= Self.shortRun { break } // a token or more: a unit of its own
                    end = min(runEnd, start + unitRows)
                }
            }
            units.append(start..<end)
            start = end
        }
        return units
    }

    /// Per unit of `units` (rows `0..<backs.count`, pieces every `pieceRows`): whether its first run
    /// may join the last run of the unit before it, where they meet at one distance (`choose`, and the
    /// GPU's seam pass): both units the matcher's (not copy runs), and the seam neither a piece's start
    /// nor one of its checkpoints, so a piece's and a checkpoint's tokens are counted alike. Each unit's
    /// match otherwise ends at its seam, a token a seam: a stretched button's HD output 1.17x zlib 6's bytes.
    func seamJoins(_ units: [Range<Int>], backs: [Int32], pieceRows: Int) -> [Bool] {
        let runs = parts.count == 1, rows = backs.count
        var joins = [Bool](repeating: false, count: units.count)
        guard units.count > 1 else { return joins }
        var checkpointsFrom = -1, cuts: [Int] = []
        for k in units.indices.dropFirst() {
            let start = units[k].lowerBound, pieceStart = start / pieceRows * pieceRows
            if pieceStart != checkpointsFrom {
                checkpointsFrom = pieceStart
                cuts = PieceGuard.checkpoints(pieceRows: min(pieceRows, rows - pieceStart), rowBytes: rowBytes).map { pieceStart + $0.rows }
            }
            let copies = runs && (backs[start] > 0 || backs[units[k - 1].lowerBound] > 0)
            joins[k] = !copies && start != pieceStart && !cuts.contains(start)
        }
        return joins
    }

    /// Per row of `firstRow..<firstRow + rows`: how many bytes back an equal row
    /// lies (with an equal row above it too, when rows are filtered), where one does
    /// within reach (32 KiB, and no further back than the `history` bytes before
    /// `firstRow`), else 0.
    func copyBacks(firstRow: Int, rows: Int, history: Int) -> [Int32] {
        let reach = min(history, Self.maxDistance)
        let earlier = map.copies(of: firstRow..<(firstRow + rows), lookingBackTo: firstRow - reach / rowBytes, filtered: filtering, known: noneKept.last)
        var backs = [Int32](repeating: 0, count: rows)
        for (r, earlier) in earlier.enumerated() where earlier >= 0 {
            let back = (firstRow + r - Int(earlier)) * rowBytes
            if back <= reach + r * rowBytes && back <= Self.maxDistance { backs[r] = Int32(back) }
        }
        return backs
    }

    /// A row's planned copy as a GPU invocation needs it (`GPUDeflater`): bytes back
    /// to an equal row (0: none) and, for a row of a copy run, where the row sits in it.
    ///
    /// A copy run is a run of rows within one piece, each a whole copy (no periodic
    /// part) the same distance back: a stretch's or a tall tile's repeated rows. Its
    /// bytes are one match, cut into tokens as `appendMatch` cuts it (`choose`), though
    /// each invocation chooses one row's tokens: a row writes the tokens that start in
    /// it, and they may reach into the rows after. A 1 × 20,000,000 tiled gradient wrote
    /// a 4-byte match a row before (64 times zlib's bytes). 32-bit fields: a piece's
    /// rows are a few hundred thousand on a tall output.
    struct RowCopy: Equatable {
        var back: Int32
        /// Bytes from the run's start to the row's, reduced: under 258 as they are,
        /// else 258 plus their remainder modulo 258. The cuts before the row are whole
        /// 258s either way, and those after fall alike.
        var runAt: Int32 = 0
        /// Bytes from the row's end to the run's, at most `runReach`.
        var runAhead: Int32 = 0
    }

    /// How far past a row's end its copy run is told: the last token starting in the row
    /// is a whole 258 bytes when at least this many follow.
    static let runReach = 261

    /// Per row of `firstRow..<firstRow + rows`: its `RowCopy`, with `history` bytes
    /// readable before the rows, copy runs cut where a piece starts (every `pieceRows` rows).
    func rowCopies(firstRow: Int, rows: Int, history: Int, pieceRows: Int) -> [RowCopy] {
        invocations(firstRow: firstRow, rows: rows, history: history, pieceRows: pieceRows).copies
    }

    /// What a GPU dispatch needs of those rows: each row's `RowCopy`, and the units it
    /// takes, one invocation each: `units`, but a copy run's rows one by one (each writes
    /// the tokens that start in it), with whether each may join the one before (`seamJoins`).
    func invocations(firstRow: Int, rows: Int, history: Int, pieceRows: Int) -> (copies: [RowCopy], units: [Range<Int>], joins: [Bool]) {
        let backs = copyBacks(firstRow: firstRow, rows: rows, history: history)
        var copies = backs.map { RowCopy(back: $0) }
        let units = units(backs: backs, pieceRows: pieceRows)
        guard parts.count == 1 else { return (copies, units, seamJoins(units, backs: backs, pieceRows: pieceRows)) } // periodic parts: a copied row is its parts' matches
        copies.withUnsafeMutableBufferPointer { copies in
            // A division only once every 258 bytes (two a row were most of a tall output's token time).
            for unit in units where backs[unit.lowerBound] > 0 {
                var at = 0, remainder = 0 // at % 258
                for r in unit {
                    copies[r].runAt = Int32(at < 258 ? at : 258 + remainder)
                    copies[r].runAhead = Int32(min(Self.runReach, (unit.upperBound - 1 - r) * rowBytes))
                    at += rowBytes
                    remainder += rowBytes
                    if remainder >= 258 { remainder %= 258 } // once every 258 bytes at most
                }
            }
        }
        // A copy run's rows one unit each.
        var split: [Range<Int>] = []
        split.reserveCapacity(units.count)
        for unit in units {
            if backs[unit.lowerBound] > 0 {
                for r in unit { split.append(r..<(r + 1)) }
            } else {
                split.append(unit)
            }
        }
        return (copies, split, seamJoins(split, backs: backs, pieceRows: pieceRows))
    }

    /// Adds the row's parts as a GPU reads them (`GPUDeflater`) to `words`: (end, period) pairs.
    func appendPackedParts(to words: inout [UInt32]) {
        for part in parts {
            words.append(UInt32(part.end))
            words.append(UInt32(part.period))
        }
    }

    /// How many parts a row has (`parts`).
    var partCount: Int { parts.count }

    /// The shape a GPU needs to choose this deflater's tokens.
    var rowBytesAndPixelBytes: (rowBytes: Int, pixelBytes: Int) { (rowBytes, pixelBytes) }
}
