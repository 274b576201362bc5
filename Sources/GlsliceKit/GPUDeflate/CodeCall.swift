/// One call's coding passes as the CPU lays them out (`GPUDeflater.deflateCall`): each job's
/// `DeflateLayout` from the token counts the token pass read back, the rows' records the coding
/// passes read (`ShaderRecords.CodeRow`), and then where each job's bits go. A job that failed
/// (the loop limit, a limit of the stream) has its result here from the step that found it.
struct CodeCall {
    typealias Row = ShaderRecords.CodeRow

    var layouts: [DeflateLayout?] = []
    /// Per job: its blocks' first index, its rows' first index, its Adler-32.
    var blockBase: [Int] = [], rowBase: [Int] = [], adlers: [UInt32] = []
    var blocks = 0, rows = 0
    /// Per row: first token in its piece, piece's first block, bit (mode 2), first token in `tokens`, count.
    var rowInfo: [UInt32] = []
    var results: [Result<GPUDeflater.Deflated, any Error>?]
    /// Per job placed: its layout, where its bits go, and its first word in the stream.
    var placed: [(layout: DeflateLayout, placement: DeflateLayout.Placement, word: Int)?]

    init(_ jobs: [GPUDeflater.Job], chosen: [Result<GPUDeflater.Chosen, any Error>]) {
        results = jobs.map { _ in nil }
        placed = jobs.map { _ in nil }
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
        rowInfo = [UInt32](repeating: 0, count: Row.words * max(1, rows))
        rowInfo.withUnsafeMutableBufferPointer { rowInfo in
            for (j, job) in jobs.enumerated() {
                guard let layout = layouts[j], case .success(let chosen) = chosen[j] else { continue }
                for r in 0..<job.rows {
                    let row = rowBase[j] + r
                    rowInfo[Row.firstToken.at(row)] = UInt32(chosen.firstTokens[r])
                    rowInfo[Row.firstInPiece.at(row)] = UInt32(layout.firstToken[r])
                    rowInfo[Row.pieceBlock.at(row)] = UInt32(blockBase[j] + layout.pieceBlock[r])
                    rowInfo[Row.count.at(row)] = UInt32(chosen.counts[r])
                }
            }
        }
    }

    /// Each job's bits from a word of its own, from the rows' bit counts and the blocks' heads and ends
    /// (`sizes`: the rows', then where each block starts in its row); the stream's words in all. A job
    /// whose passes ran out of loop iterations, or whose bits would pass 512 MiB, fails here and its
    /// rows are left out of the bits.
    mutating func place(_ jobs: [GPUDeflater.Job], sizes: [UInt32], codes: [DeflateLayout.BlockEnds], renderer: String) -> Int {
        var words = 0
        for (j, job) in jobs.enumerated() {
            guard let layout = layouts[j] else { continue }
            let jobRows = rowBase[j]..<(rowBase[j] + job.rows), jobBlocks = blockBase[j]..<(blockBase[j] + layout.blocks.count)
            if sizes[jobRows].contains(GPUDeflater.tooLong) || codes[jobBlocks].contains(where: { $0.headBits == Int(GPUDeflater.tooLong) }) {
                results[j] = .failure(UnavailableErrors.gpuLoopLimit(renderer))
            } else {
                let placement = layout.place(codes: codes[jobBlocks], bits: sizes[jobRows],
                                             startInRow: sizes[(rows + jobBlocks.lowerBound)..<(rows + jobBlocks.upperBound)])
                // Bit offsets are 32-bit: the call's streams together stay under 512 MiB (checked before they are written).
                let end = 4 * (words + placement.byteCount / 4 + 2)
                if end >= 1 << 29 {
                    results[j] = .failure(UnavailableErrors.gpuEncodeOverLimit(.streamBytes, end, limit: 1 << 29))
                } else {
                    placed[j] = (layout, placement, words)
                    for r in 0..<job.rows { rowInfo[Row.bit.at(rowBase[j] + r)] = UInt32(32 * words + placement.rowBits[r]) }
                    words += placement.byteCount / 4 + 2
                }
            }
            if placed[j] == nil {
                for r in jobRows { rowInfo[Row.count.at(r)] = 0 } // left out of the bits
            }
        }
        return words
    }
}
