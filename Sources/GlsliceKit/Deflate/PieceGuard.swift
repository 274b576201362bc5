import CPNG
import Foundation

/// The default encoder's bound against zlib 6 (issue 69). glslice's deflate finds what the plan and its
/// near candidates show, so an image whose repeats lie elsewhere (rows equal to rows k back, rows shifted
/// by a few pixels, a 2-byte row) can come out many times zlib's bytes. There its tokens are short: a
/// piece that takes more than one token per `bytesPerToken` bytes, in all or by one of its checkpoints, is
/// coded by zlib 6 instead, over the same rows and window (a whole image by libdeflate 6, within 2% of zlib
/// 6's bytes: `recoded`; or stored, where that is fewer bytes). The rule reads only token counts at whole
/// rows, which both twins know (the GPU reads each row's back), so both give the same bytes; the CPU stops
/// choosing a piece's tokens as soon as they fail, by its first eighth at the latest (by the 4 KiB after its
/// first row where it finds next to nothing: `early`), so a piece that fails costs little more than the
/// recoding's own time.
enum PieceGuard {
    /// A piece is zlib's where its tokens cover fewer bytes than this each, on average. At 12 the
    /// corpus's pieces that need zlib fail, and the benchmark sets keep their bytes and time; at 16,
    /// 1.2% of the bench manifest's raw bytes went to zlib, for 0.8% fewer bytes and 8% more encode
    /// time (docs/BENCHMARKS-LOG.md).
    static let bytesPerToken = 12

    /// Where a piece's tokens are counted before its end, so a piece that fails is known early (its
    /// tokens are otherwise chosen until it fails: a 60 x 8000 `round` took its own time and zlib's):
    /// its rows up to 16 KiB, where only rows all but literals fail (at 12 there, an HD output's caps
    /// sent 11% of the HD set's encode time to zlib), and up to 128 KiB.
    static let checks: [(bytes: Int, bytesPerToken: Int)] = [(16384, 4), (131_072, bytesPerToken)]

    /// A piece's first 1/this (16 KiB at least) is also a checkpoint at `bytesPerToken`: a small
    /// image that fails (a 600 x 240 palette whose rows repeat 7 back or shift 5 px) was known only
    /// at its end, after all of glslice's own work, so it took 1.4-1.8x zlib 6's time. A 1 MiB
    /// piece's is the 128 KiB check; the bench manifest 660 bytes smaller, 0.4% more instructions.
    static let firstShare = 8

    /// A whole image (one piece) larger than the dear-token rule's `maxBytes` (512 KiB) is libdeflate's where its
    /// first `firstShare` takes more than one token per this many bytes: the rule would ask libdeflate
    /// for its end (6 tokens a hundred bytes), and glslice's own coding to the end on top of libdeflate's cost a
    /// 28 x 8000 `round` texture 1.4-1.5x zlib 6's time (0.94x since). No file of the benchmark sets is caught:
    /// their bytes are unchanged.
    static let largeWholeImageBytesPerToken = 16

    /// Rows of at most this many bytes (the filter byte counted: up to 15 palette pixels, 3 RGBA, 5 RGB) are
    /// zlib's from the start, unfiltered (`RowFilter.filters`): a row too short to hold a match of its own
    /// gives glslice's deflate nothing the plan knows that zlib's chains miss, and its work a row (the map's
    /// keys, the filter, the matcher) cost 1.3-1.8x zlib 6's time on a 1 x 393,716 stretch and a 2 x 400,000
    /// `round` strip. Both twins read this rule: the GPU recodes such pieces from its scanlines.
    static let narrowRowBytes = 16

    /// Whether rows of `rowBytes` bytes are zlib's from the start (`narrowRowBytes`).
    static func narrow(rowBytes: Int) -> Bool { rowBytes <= narrowRowBytes }

    /// A piece's rows up to a check, and the most tokens they may take.
    struct Checkpoint: Equatable {
        var rows: Int
        var maxTokens: Int
    }

    /// The checkpoints of a piece of `pieceRows` rows, in order: the `checks` and its first
    /// `firstShare` within it, then its last row (`bytesPerToken`); where two fall on one row,
    /// the stricter. Its units are cut at each (`RepeatDeflater.units`), so both twins count the
    /// same tokens there. `wholeImage`: the piece is the image, whose first share, past 512 KiB, is
    /// held to `largeWholeImageBytesPerToken` (the rows are the same either way).
    static func checkpoints(pieceRows: Int, rowBytes: Int, wholeImage: Bool = false) -> [Checkpoint] {
        let large = wholeImage && pieceRows * rowBytes > dearTokens[1].maxBytes
        let share = (bytes: max(checks[0].bytes, pieceRows * rowBytes / firstShare), bytesPerToken: large ? largeWholeImageBytesPerToken : bytesPerToken)
        var all: [Checkpoint] = []
        for check in (checks + [share]).sorted(by: { ($0.bytes, -$0.bytesPerToken) < ($1.bytes, -$1.bytesPerToken) }) {
            let rows = (check.bytes + rowBytes - 1) / rowBytes
            if pieceRows > rows, rows > (all.last?.rows ?? 0) { all.append(Checkpoint(rows: rows, maxTokens: rows * rowBytes / check.bytesPerToken)) }
        }
        all.append(Checkpoint(rows: pieceRows, maxTokens: pieceRows * rowBytes / bytesPerToken))
        return all
    }

    /// A piece's 4 KiB after its first row (whole rows; where they end before its first checkpoint) are also held
    /// to a token per 4 bytes: a piece the matcher finds next to nothing in (16 colours shifted 3 px or repeating
    /// 7-13 rows back, at 600 x 240: every byte a literal) was known only at 16 KiB, and its own coding to there
    /// took more than half what zlib 6 takes over the whole image, so 1.5-1.8x zlib 6's time (`make fuzz-bound`).
    /// Its first row, with no row above in a whole image, is left out: 400 px of noise atop rows that copy it
    /// (0.74x zlib 6's bytes) would fail there. An image whose second row is so, the rest copies of it, does:
    /// 0.74x zlib 6's bytes before, 0.95x as libdeflate's.
    /// This check does not cut the piece's units, as a checkpoint does (a cut at 4 KiB made the bench manifest
    /// 0.34% larger): it counts the tokens that start in its rows once they are final (`RepeatDeflater.choose`),
    /// which the GPU reads back as they are. No file of the benchmark sets is caught (at 6 bytes a token, 8 were).
    static let early = (bytes: 4096, bytesPerToken: 4)

    /// The rows of a piece's early check (`early`), and the most tokens that start in them.
    struct EarlyCheck: Equatable {
        var rows: Range<Int>
        var maxTokens: Int
    }

    /// The early check of a piece of `pieceRows` rows (`early`), or nil where its first checkpoint comes first.
    static func earlyCheck(pieceRows: Int, rowBytes: Int, wholeImage: Bool = false) -> EarlyCheck? {
        earlyCheck(rowBytes: rowBytes, before: checkpoints(pieceRows: pieceRows, rowBytes: rowBytes, wholeImage: wholeImage))
    }

    /// The same, for a piece whose `checkpoints` are worked out already.
    static func earlyCheck(rowBytes: Int, before checkpoints: [Checkpoint]) -> EarlyCheck? {
        let rows = (early.bytes + rowBytes - 1) / rowBytes
        guard let first = checkpoints.first, 1 + rows < first.rows else { return nil }
        return EarlyCheck(rows: 1..<(1 + rows), maxTokens: rows * rowBytes / early.bytesPerToken)
    }

    /// Whether a piece whose rows take `tokenCounts` tokens each is zlib's: more tokens by its early check
    /// or one of its checkpoints than it allows (`wholeImage`: the piece is the image).
    static func recodes(_ tokenCounts: ArraySlice<Int>, rowBytes: Int, wholeImage: Bool = false) -> Bool {
        let all = checkpoints(pieceRows: tokenCounts.count, rowBytes: rowBytes, wholeImage: wholeImage)
        if let early = earlyCheck(rowBytes: rowBytes, before: all),
           tokenCounts.dropFirst(early.rows.lowerBound).prefix(early.rows.count).reduce(0, +) > early.maxTokens { return true }
        var sum = 0, at = tokenCounts.startIndex
        for checkpoint in all {
            let end = tokenCounts.startIndex + checkpoint.rows
            sum += tokenCounts[at..<end].reduce(0, +)
            at = end
            if sum > checkpoint.maxTokens { return true }
        }
        return false
    }

    /// A piece is also coded by zlib 6 (`recoded`), and the smaller kept, where its tokens are many and dear, by
    /// one of `dearTokens`: at least `perHundredBytes` tokens a hundred bytes, `bits` bits or more each
    /// on average, in a piece of at most `maxBytes`. There the near candidates find short matches and
    /// leave literals between them where zlib's chains find more:
    /// - a screenshot's text, whose glyphs recur anywhere in a row (the corpus's `shot-text`,
    ///   1.53-1.70x zlib 6's bytes at every size and seed `make fuzz-bound` tries): 3 and 11 bits;
    /// - a small output of a resampled texture, its rows Up where zlib matches them as they are,
    ///   rows a tile back (the bench manifest's `texture.png` `round` at 483 x 168, 4.1x): 6 and 8
    ///   bits, in pieces up to 512 KiB, where zlib's time on top is a small output's (an HD piece's
    ///   cost the HD set 3-7% more encode CPU for 0.13% fewer bytes).
    /// On the bench manifest 42 pieces of 2,345 ask it (0.8% of its bytes), none of the HD set's 702
    /// (docs/BENCHMARKS-LOG.md).
    /// A whole image (one piece) is held to no size limit: its recoding is libdeflate's (a 28 x 8000 `round`
    /// texture's 680 KB, whose rows copy each other since `RepeatMap.noneRows`, 1.63x zlib 6 untried).
    static let dearTokens: [(perHundredBytes: Int, bits: Int, maxBytes: Int)] = [(3, 11, .max), (6, 8, 512 << 10)]

    /// Whether a piece of `rawBytes` bytes whose `tokens` code to `codedBytes` asks zlib 6 too. Read
    /// from counts both twins keep: the tokens, and the bytes before any are stored. `wholeImage`:
    /// the piece is the image (no history, the last), which `recoded` gives libdeflate, not zlib:
    /// no rule's size limit holds it.
    static func asksZlib(tokens: Int, codedBytes: Int, rawBytes: Int, wholeImage: Bool = false) -> Bool {
        tokens > 0 && dearTokens.contains {
            (rawBytes <= $0.maxBytes || wholeImage) && tokens * 100 >= rawBytes * $0.perHundredBytes && codedBytes * 8 >= tokens * $0.bits
        }
    }

    /// A piece coded by zlib 6, or a whole image by libdeflate 6 (`recoded`).
    struct Recoded {
        var bytes: [UInt8] = []
        var status: Int32 = Z_OK
        /// Where the rows were unfiltered: the Adler-32 of the rows as coded, the image's (from 1).
        var adler: UInt32?
    }

    /// zlib 6's raw deflate of `count` bytes at `data`, primed with the `history` bytes before them
    /// (as `--compression zlib` codes a piece), or those bytes stored where that is fewer; with
    /// zlib's status (no bytes unless `Z_OK`). A piece that is the whole image (no history, `last`)
    /// is libdeflate 6's instead: zlib 6's bytes within 2% on every corpus image at three sizes but
    /// a Bayer dither's 307 (1.20x), in 0.5-0.7x its time, so a piece glslice's deflate fails costs
    /// less on top of what it spent (libdeflate takes no primed window, so other pieces keep zlib).
    /// `unfiltering`: where the piece is the whole image, its rows (`RowFilter`'s, that many
    /// bytes each) are coded as they were before filtering, all None, as `--compression zlib` codes
    /// them; the Adler-32 then changes with them. Up rows broke repeats k rows back that zlib finds
    /// (a 28-px `round` texture 1.12x zlib 6 over its filtered rows, 1.00x over them as they were).
    static func recoded(_ data: UnsafePointer<UInt8>, history: Int, count: Int, windowBits: Int32, last: Bool,
                        unfiltering rowBytes: Int? = nil) -> Recoded {
        guard history == 0, last else { return zlib(data, history: history, count: count, windowBits: windowBits, last: last) }
        guard let rowBytes else { return libdeflate(data, count: count) }
        let rows = RowFilter.unfiltered(data, count: count, rowBytes: rowBytes)
        return rows.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return Recoded(status: Z_BUF_ERROR) }
            var coded = libdeflate(base, count: count)
            coded.adler = libdeflate_adler32(1, base, count)
            return coded
        }
    }

    /// The whole image's deflate, as one final block chain: libdeflate's at `wholeImageLevel`, or
    /// stored where fewer bytes. Its window is libdeflate's 32 KiB, but no match reaches further
    /// than the image, which the stream's window (`SegmentedZlib.windowBits`) always covers.
    private static func libdeflate(_ data: UnsafePointer<UInt8>, count: Int) -> Recoded {
        var out: UnsafeMutablePointer<UInt8>?
        let length = gs_libdeflate_raw(data, count, wholeImageLevel, &out)
        guard length > 0, let out else { return Recoded(status: Z_MEM_ERROR) }
        defer { free(out) }
        return Recoded(bytes: StoredBlocks.smaller(Array(UnsafeBufferPointer(start: out, count: length)), data, count: count, last: true))
    }

    /// libdeflate's level for a whole image: its 6 is zlib 6's lazy matching with its own chains.
    static let wholeImageLevel: Int32 = 6

    /// zlib 6's piece (`SegmentedZlib.zlib`), or stored where fewer bytes.
    private static func zlib(_ data: UnsafePointer<UInt8>, history: Int, count: Int, windowBits: Int32, last: Bool) -> Recoded {
        let (bytes, status) = SegmentedZlib.zlib(data, history: history, count: count, level: 6, windowBits: windowBits, last: last)
        guard status == Z_OK else { return Recoded(status: status) }
        return Recoded(bytes: StoredBlocks.smaller(bytes, data, count: count, last: last))
    }
}
