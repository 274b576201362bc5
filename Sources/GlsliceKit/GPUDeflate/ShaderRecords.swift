/// What the CPU's encoder and its GLSL twins must agree on, named once here (issue 53): the
/// deflate's constants and the word positions of every record the compute passes read. Swift
/// fills the records through these names; each compute shader gets them as `#define`s put after
/// its `#version` line (`ComputeProgram`), so no shader spells a constant or a position itself
/// (`ShaderRecordsTests` fails when one does).
package enum ShaderRecords {
    /// Per row of a token pass's plan (`deflate_tokens.comp`): its first byte in the scanlines, its
    /// first token's room, the copy's distance | its run ahead << 16, its job << 10 | its copy run's
    /// reduced start (`RepeatDeflater.RowCopy`).
    enum PlanRow: Int, ShaderRecord {
        case firstByte, firstToken, copy, jobAndRunStart
        static let words = allCases.count
    }
    /// Per unit of rows an invocation chooses (`RepeatDeflater.units`): its first row, how many,
    /// and the first word of its hash table (`GPUDeflater.tableWords` of them; unused by a copy run's row).
    enum PlanUnit: Int, ShaderRecord {
        case firstRow, rows, tableAt, joins
        static let words = allCases.count
    }
    /// Per unit, what the token pass leaves for the seam pass (`RepeatDeflater.seamJoins`): its first run
    /// where it starts the unit (length 0: none) and the tokens it took, its last run (length 0: none)
    /// and its first token in the unit, and the tokens of the run the seam pass joined (0: none).
    enum Seam: Int, ShaderRecord {
        case firstLength, firstDistance, firstTokens, lastStart, lastLength, lastDistance, lastFrom, joined
        static let words = allCases.count
    }
    /// Per segment of scanlines whose Adler-32 sums one invocation makes.
    enum PlanSegment: Int, ShaderRecord {
        case start, end
        static let words = allCases.count
    }
    /// Per job: its shape, where its matches may reach, and its parts (`RepeatDeflater`).
    enum PlanJob: Int, ShaderRecord {
        case rowBytes, pixelBytes, hashBits, oldest, partsAt, partCount
        static let words = allCases.count
    }
    /// Per row of the coding passes (`deflate_pack.comp`): its first token's index in its piece,
    /// the piece's first block, the bit its first token goes at (the last pass), its first token
    /// in the tokens, and how many it has (0: left out).
    enum CodeRow: Int, ShaderRecord {
        case firstInPiece, pieceBlock, bit, firstToken, count
        static let words = allCases.count
    }
    /// Per image of `scanlines.comp`: its shape and place, its colour table, its scanlines' layout
    /// and its first invocation in each mode.
    enum Image: Int, ShaderRecord {
        case width, height, x0, y0, stride, table, channels, bitDepth, rowBytes, scanlineWords, firstWord
        case colourRuns, sums, base, rowRuns, scanlineRuns, rowAbove, filters
        static let words = allCases.count
    }

    /// The bit a row's sum as it is starts with where the row is written None whatever its bytes
    /// (`RepeatMap.noneRows`): a row's sum of bytes taken as signed (128 each at most) never reaches it
    /// while its row bytes are under this / 256 (`GPUEncoder` refuses more).
    static let noneRow: UInt32 = 1 << 31

    /// A block's symbol counts (the first coding pass's output): 286 literal/length symbols, then 30 distances.
    static let literalSymbols = 286
    static let distanceSymbols = 30
    static let blockCountWords = literalSymbols + distanceSymbols
    /// A block's code as `deflate_code.comp` makes it from the counts (the twin of `BlockCode`): code |
    /// length << 16 for the 288 literal/length symbols, then the 30 distances (what the coding passes
    /// read), then its head's bit count (`GPUDeflater.tooLong` where loops ran out), a spare word, and
    /// the head itself, BFINAL left 0: a dynamic head's 4,498 bits at most (17, 19 lengths of 3 bits,
    /// 316 runs of 14 at most).
    static let literalCodes = 288
    static let distanceCodesAt = literalCodes
    static let headBitsWord = distanceCodesAt + distanceSymbols
    static let headAt = headBitsWord + 2
    static let headWords = 144
    static let blockTableWords = headAt + headWords

    /// Every `#define`, in the order a shader gets them.
    static var defines: [(name: String, value: String)] {
        var all: [(String, String)] = [
            ("MAX_DISTANCE", "\(RepeatDeflater.maxDistance)"),
            ("SHORT_PART", "\(RepeatDeflater.shortPart)"),
            ("HASH_REACH", "\(RepeatDeflater.hashReach)"),
            ("HASH_SLOTS", "\(1 << RepeatDeflater.maxHashBits)u"),
            ("HASH_MULTIPLIER", "\(RepeatDeflater.hashMultiplier)u"),
            ("LAZY_BELOW", "\(RepeatDeflater.lazyBelow)"),
            ("RGB_UP_DIVISOR", "\(RowFilter.rgbUpDivisor)u"),
            ("PALETTE_UP_LESS", "\(RowFilter.paletteUpLess)u"),
            ("PALETTE_UP_AS_IS", "\(RowFilter.paletteUpAsIs)u"),
            ("NONE_ROW", "\(noneRow)u"),
            ("SKIP_SHIFT", "\(RepeatDeflater.skipShift)"),
            ("MAX_SKIP", "\(RepeatDeflater.maxSkip)"),
            ("MIN_MATCH", "\(RepeatDeflater.minMatch)"),
            ("SHORT_MATCH_REACH", "\(RepeatDeflater.shortMatchReach)"),
            ("MAX_WALK_PARTS", "\(RepeatDeflater.maxWalkParts)u"),
            ("BLOCK_TOKENS", "\(DeflateLayout.blockTokens)u"),
            ("LITERAL_SYMBOLS", "\(literalSymbols)u"),
            ("BLOCK_COUNT_WORDS", "\(blockCountWords)u"),
            ("END_OF_BLOCK", "\(DeflateToken.endOfBlock)u"),
            ("LITERAL_CODES", "\(literalCodes)u"),
            ("DISTANCE_SYMBOLS", "\(distanceSymbols)u"),
            ("DISTANCE_CODES_AT", "\(distanceCodesAt)u"),
            ("HEAD_BITS_WORD", "\(headBitsWord)u"),
            ("HEAD_AT", "\(headAt)u"),
            ("BLOCK_TABLE_WORDS", "\(blockTableWords)u"),
            ("PALETTE_COLOURS", "\(Palette.capacity)u"),
            ("COLOUR_SLOTS", "\(GPUEncoder.slots)u"),
            ("RUN", "\(GPUEncoder.run)u"),
            ("NO_COLOUR", "\(GPUEncoder.none)u"),
            ("MAX_MATCH", "\(DeflateToken.maxLength)"),
            ("TOKEN_MATCH", "\(DeflateToken.matchFlag)u"),
            ("TOKEN_LENGTH_SHIFT", "\(DeflateToken.lengthShift)u"),
            ("TOKEN_LENGTH_MASK", "\(DeflateToken.lengthMask)u"),
            ("TOKEN_DISTANCE_MASK", "\(DeflateToken.distanceMask)u"),
            ("FIXED_NINE_FROM", "\(BlockCode.fixedNineFrom)u"),
            ("FIXED_EIGHT_FROM", "\(BlockCode.fixedEightFrom)u"),
            ("CODE_LENGTH_ORDER", "uint[\(BlockCode.Header.order.count)](" + BlockCode.Header.order.map { "\($0)u" }.joined(separator: ", ") + ")"),
            ("LEAST_LITERAL_CODES", "\(BlockCode.Header.leastLiteralCodes)u"),
            ("LONGEST_ZERO_RUN", "\(BlockCode.Header.longestZeroRun)u"),
            ("CODE_LENGTH_SHIFT", "\(GPUDeflater.codeLengthShift)u"),
            ("CODE_MASK", "\(GPUDeflater.codeMask)u"),
            ("ROW_RUN_AHEAD_SHIFT", "\(GPUDeflater.runAheadShift)u"),
            ("ROW_BACK_MASK", "\(GPUDeflater.backMask)u"),
            ("ROW_RUN_AT_BITS", "\(GPUDeflater.runAtBits)u"),
            ("ROW_RUN_AT_MASK", "\(GPUDeflater.runAtMask)u"),
            ("ADLER_MODULUS", "\(GPUDeflater.adlerModulus)u"),
            ("TOO_LONG", "\(GPUDeflater.tooLong)u"),
        ]
        all += record(PlanRow.self, "PLAN_ROW") + record(PlanUnit.self, "PLAN_UNIT") + record(PlanSegment.self, "PLAN_SEGMENT")
        all += record(PlanJob.self, "PLAN_JOB") + record(CodeRow.self, "CODE_ROW") + record(Image.self, "IMAGE") + record(Seam.self, "SEAM")
        return all
    }

    /// A record's fields as `PREFIX_FIELD_NAME` word positions, and `PREFIX_WORDS`, its length.
    private static func record<R: ShaderRecord>(_: R.Type, _ prefix: String) -> [(String, String)] {
        R.allCases.map { field in ("\(prefix)_\(macroName(String(describing: field)))", "\(field.rawValue)u") }
            + [("\(prefix)_WORDS", "\(R.words)u")]
    }

    /// `firstByte` as `FIRST_BYTE`.
    static func macroName(_ field: String) -> String {
        field.reduce(into: "") { name, c in
            if c.isUppercase { name += "_" }
            name += c.uppercased()
        }
    }

    /// `source` with every define after its `#version` line (the line GLSL wants first), then
    /// `#line 2`, so a driver's error names the line of the file (`make test` checks each with glslang).
    package static func defining(_ source: String) -> String {
        let header = defines.map { "#define \($0.name) \($0.value)\n" }.joined() + "#line 2\n"
        guard let newline = source.firstIndex(of: "\n") else { return source + "\n" + header }
        return String(source[...newline]) + header + String(source[source.index(after: newline)...])
    }
}

/// A record's fields, word by word: `field.at(n)` is the field's word in the `n`th record.
protocol ShaderRecord: CaseIterable, RawRepresentable where RawValue == Int {
    /// Words a record: one a field.
    static var words: Int { get }
}

extension ShaderRecord {
    @inline(__always)
    func at(_ record: Int) -> Int { record * Self.words + rawValue }
}
