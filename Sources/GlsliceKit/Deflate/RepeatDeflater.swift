import CPNG
import Foundation

/// glslice's own deflate, the default compression (issues 42 and 51): PNG scanlines (filter None) coded
/// from what the plan says repeats, with no search for those repeats.
///
/// - A row the `RepeatMap` says equals one of the rows up to 32 KiB back is matches:
///   its periodic parts one period back, the rest one or more rows back. Such rows
///   in a run, the same distance back and with no periodic part, are one match
///   cut as zlib would cut it (a copy run, `RowCopy`).
/// - Any other row: each x span's periodic part is matches one period back;
///   what is left (caps, gradients, a period's first copy) goes to a matcher
///   that tries up to eleven places per byte: one pixel back, one row back, the row
///   above one and two pixels either side, the last match's distance, the last two
///   places the same three bytes were seen (a hash table with chains of two) and, in
///   RGB or RGBA rows, two rows back a pixel either side.
/// - A part the match being gathered also covers continues it, where that
///   costs no more bits (docs/DESIGN.md, "The deflate writer"); else that match
///   takes what it covers of the part up to the end of its last token.
///
/// Every choice depends only on the rows and the map, so a piece of the image
/// gives the same bytes on any thread (`SegmentedZlib` runs pieces in
/// parallel). The tokens are coded by `DeflateBlockWriter`.
struct RepeatDeflater: Sendable {
    let rowBytes: Int
    /// The matcher's "one pixel back", in bytes (1 for indices).
    let pixelBytes: Int
    let map: RepeatMap
    /// How rows are filtered (`RowFilter`, nil: not), which a copy's bytes depend on (`RepeatMap.copies(filtered:)`).
    let filtering: RepeatMap.Filtering?
    var filtersRows: Bool { filtering != nil }
    /// A row in parts, left to right from the filter byte: runs of bytes that
    /// repeat `period` bytes back (their x span's period), or with `period` 0,
    /// left to the matcher. A handful per x span, whatever the width.
    let parts: [(end: Int, period: Int)]
    static let maxDistance = DeflateToken.maxDistance
    /// The matcher's hash table holds at most this many bytes of the row above (its
    /// last ones): as many as the table has entries.
    static let hashReach = 4096
    /// The hash table's size at most: 1 << 12 entries, one a byte of `hashReach`.
    static let maxHashBits = 12
    /// Parts shorter than this continue the match being gathered where they can, whatever its distance.
    static let shortPart = 512
    /// A match the matcher finds shorter than this is weighed against the one a byte on
    /// (lazy evaluation, one step): HD 1.1% smaller at 32, 0.6% at 16 (zlib 6 uses 16 with chains of 128).
    static let lazyBelow = 32
    /// After the matcher's `n`th miss in a row in a part, the next `min(n >> skipShift, maxSkip)` bytes are
    /// literals it is neither asked for nor enters (as LZ4 and Snappy step through noise: 4000² noise 0.6x the
    /// time). A match, the next part, or a miss equal to the byte above or a pixel back (a smooth area's
    /// matches are near: without this, stretched noise was 0.7% larger) starts the count again.
    static let skipShift = 5
    static let maxSkip = 7
    /// The shortest match the matcher takes, and how near a match that short must be (zlib's
    /// `TOO_FAR`): three bytes cost about what three literals do further back. Four until
    /// session 7: RGB pixels come three bytes apiece, and a cap's pixel seen in the row
    /// before was three literals (a 20,000 x 1,000 tile 1.5% smaller, HD 0.8%, stretched noise 0.9%).
    static let minMatch = 3
    static let shortMatchReach = 4096
    /// Rows of at most this many parts walk a match back (`Matcher.walkedBack`): the part a byte is
    /// in is found in 16 halvings, which the GPU's twin writes out (a loop costs llvmpipe's iterations).
    static let maxWalkParts = 1 << 16
    /// The hash's multiplier, libdeflate's: with 2,654,435,761 (Knuth's), words one apart in
    /// every byte (a gradient's) gave one slot, their product's difference 0x00622AB1.
    static let hashMultiplier: UInt32 = 0x1E35_A7BD
    /// A unit's bytes at most, unless its one row is longer (`units`). Measured on the
    /// bench manifest's `fast` bytes: rows alone 3,520,932; 4 KiB 3,305,111; 6 KiB
    /// 3,285,841; 8 KiB 3,276,471; 16 KiB 3,263,018 (zlib 6: 3,079,467). At 8 KiB,
    /// parity's jobs began to run out of llvmpipe's loop iterations (`Shaders/deflate_tokens.comp`).
    static let unitBytes = 6144

    /// - Parameters:
    ///   - bitsPerPixel: 1, 2, 4 or 8 (palette indices), 24 (RGB) or 32 (RGBA).
    ///   - filtersRows: whether rows are `RowFilter`'s (None or Up, by their content and `RepeatMap.noneRows`):
    ///     a row copies an equal row only where both are None or the rows above them are equal too.
    ///   - height: the output's rows (where `filtersRows`: `noneRows` reads the rows after a row); the map's
    ///     row keys are kept for the encoding up to `RepeatMap.keptRowsWhileEncoding` of them.
    init(map: RepeatMap, width: Int, rowBytes: Int, bitsPerPixel: Int, filtersRows: Bool = false, height: Int = 0) {
        self.rowBytes = rowBytes
        filtering = filtersRows ? Self.filtering(rowBytes: rowBytes, height: height) : nil
        pixelBytes = max(1, bitsPerPixel / 8)
        self.map = PieceGuard.narrow(rowBytes: rowBytes)
            ? map : map.keepingRowKeys(height: height, upTo: RepeatMap.keptRowsWhileEncoding, plainCopies: !filtersRows)
        var parts: [(end: Int, period: Int)] = []
        for (span, period) in map.columnPeriods where period < span.count && span.upperBound <= width {
            // The byte period: the fewest whole bytes holding a whole number of periods.
            let bits = period * bitsPerPixel
            let distance = Self.lcm(bits, 8) / 8
            guard distance <= Self.maxDistance else { continue }
            let pixelShift = distance * 8 / bitsPerPixel // pixels in one byte period: a multiple of `period`
            // Data byte k holds pixels k·8/bpp through (k·8+7)/bpp; it repeats when all of them
            // lie in the span and at least one byte period in.
            let firstByte = ((span.lowerBound + pixelShift) * bitsPerPixel + 7) / 8
            let endByte = span.upperBound * bitsPerPixel / 8
            if firstByte < endByte {
                parts.append((1 + firstByte, 0)) // the matcher's, up to here (the spans are in order)
                parts.append((1 + endByte, distance))
            }
        }
        parts.append((rowBytes, 0))
        var kept: [(end: Int, period: Int)] = []
        for part in parts where part.end > (kept.last?.end ?? 0) { kept.append(part) } // the empty ones dropped
        self.parts = kept
    }

    /// How rows `rowBytes` each, `height` of them, are filtered: `RepeatMap.noneRows` looks as far
    /// either way as a copy reaches back (32 KiB).
    static func filtering(rowBytes: Int, height: Int) -> RepeatMap.Filtering {
        RepeatMap.Filtering(height: height, window: max(1, maxDistance / rowBytes))
    }

    /// Per row of `rows`: whether it is written None whatever its bytes (`RepeatMap.noneRows`; none where rows are not filtered).
    /// Kept (`noneKept`) for the copies of the pieces those rows go to, which read them again.
    func noneRows(_ rows: Range<Int>) -> [Bool] {
        guard let filtering else { return [Bool](repeating: false, count: rows.count) }
        let none = map.noneRows(rows, filtering: filtering)
        noneKept.keep(rows, none)
        return none
    }

    /// The last rows' `noneRows`, kept for `copyBacks`: a small output's filter and its one piece's copies
    /// read the same rows (worked out twice, the farm's instructions 0.4% more). Pieces run on other threads: locked.
    final class NoneKept: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: (rows: Range<Int>, none: [Bool])?

        func keep(_ rows: Range<Int>, _ none: [Bool]) { lock.withLock { kept = (rows, none) } }
        var last: (rows: Range<Int>, none: [Bool])? { lock.withLock { kept } }
    }
    let noneKept = NoneKept()

    /// The extra bits deflate writes with a match `distance` back.
    private static func extraBits(_ distance: Int) -> Int { DeflateToken.distanceExtra[Int(DeflateToken.distanceCode[distance - 1])] }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
    private static func lcm(_ a: Int, _ b: Int) -> Int { a / gcd(a, b) * b }

    /// Every token for those rows, in one array (for tests).
    func tokens(_ data: UnsafePointer<UInt8>, history: Int, firstRow: Int, rows: Int) -> [DeflateToken] {
        var all: [DeflateToken] = []
        let rest = choose(data, history: history, firstRow: firstRow, rows: rows, guarded: false) { all += $0 }
        return all + (rest ?? [])
    }

    /// The hash table's size, 2^bits: twice a row's bytes (the row and the one
    /// above are what it holds), at least 256 entries and at most 4,096 (a GPU
    /// unit's table is 32 KiB of a storage buffer: `GPUDeflater.tableWords`).
    static func hashBits(rowBytes: Int) -> Int {
        var bits = 8
        while bits < maxHashBits && 1 << bits < 2 * rowBytes { bits += 1 }
        return bits
    }

    /// Chooses the tokens for those rows, a unit of rows at a time (`units`). Each
    /// unit's tokens are its own: a pure function of its rows, the bytes before them
    /// and the map, so a GPU invocation per unit chooses the same ones
    /// (`Shaders/deflate_tokens.comp`). Within a unit, a match joins the next row's
    /// (rows cut every match until issue 51: 12% of the bench manifest's bytes).
    /// A copy run is one match, here at once (a GPU invocation writes the tokens that
    /// start in its row, `RowCopy`). Elsewhere, at each byte:
    /// - in a row the map says is a copy: a match to the end of the byte's part,
    ///   one period back in a periodic part, else back to that row;
    /// - elsewhere in a periodic part: a match to the part's end, one period back;
    /// - elsewhere: the matcher's longest match of 3 bytes or more (3 only within 4 KiB), ending in the row, or a
    ///   literal (under 32 bytes, a longer one a byte on makes this byte one; after misses, `skipShift`);
    /// - but a part the match being gathered also covers continues it, where the
    ///   part is short or that distance costs no more extra bits; else, a planned part's
    ///   first bytes it covers, up to the end of its last token (`fillLength`).
    /// Matches at the same distance that meet are joined before they are cut
    /// into tokens of up to 258 bytes. Each full block of tokens goes to `block`
    /// as it fills (memory stays at one block, however long a row); the rest is returned,
    /// or nil where they are `guarded` and fail one of `PieceGuard`'s checkpoints (checked after each
    /// unit: its units end at each; `wholeImage`: the piece is the image, as `PieceGuard.checkpoints` weighs it).
    func choose(_ data: UnsafePointer<UInt8>, history: Int, firstRow: Int, rows: Int, guarded: Bool, wholeImage: Bool = false,
                block: (ArraySlice<DeflateToken>) -> Void) -> [DeflateToken]? {
        // Rows append to one array, passed inout (a closure capturing it cost a
        // dynamic exclusivity check a token); full blocks go out after each unit.
        // At most a token a byte, and two blocks' worth (256 KiB) at most: a small output's buffer is small.
        var tokens = TokenBuffer(capacity: min(2 * DeflateLayout.blockTokens, rows * rowBytes + 16))
        defer { tokens.deallocate() }
        let hashBits = Self.hashBits(rowBytes: rowBytes)
        // Where each 3-byte hash was last seen, piece-relative, and (from 2^hashBits on) where before
        // that: a chain of two (HD 2.3% smaller than one; four, 0.2% more). An entry before the row above is stale.
        let seen = UnsafeMutablePointer<Int>.allocate(capacity: 2 << hashBits)
        seen.initialize(repeating: Int.min, count: 2 << hashBits)
        defer { seen.deallocate() }
        let oldest = -min(history, Self.maxDistance), rowBytes = self.rowBytes
        let backs = copyBacks(firstRow: firstRow, rows: rows, history: history)
        var entered = Int.max
        let runs = parts.count == 1
        var match = MatchRun(), sentTokens = 0
        // The last unit's last run, and (`pending`) the same where the next unit's first may join it (`seamJoins`).
        var lastRun: MatchRun.Seam?, pending: MatchRun.Seam?
        let pieceCheckpoints = guarded ? PieceGuard.checkpoints(pieceRows: rows, rowBytes: rowBytes, wholeImage: wholeImage) : []
        var checkpoints = pieceCheckpoints[...]
        let unitList = units(backs: backs, pieceRows: rows), joins = seamJoins(unitList, backs: backs, pieceRows: rows)
        // The early check (`PieceGuard.earlyCheck`): tokens that start in its rows, counted as they are final
        // (all before a run the next unit may join), however units fall.
        var early = PieceGuard.earlyCheck(rowBytes: rowBytes, before: pieceCheckpoints) // none unguarded: no checkpoints
        let earlyStart = (early?.rows.lowerBound ?? 0) * rowBytes, earlyEnd = (early?.rows.upperBound ?? 0) * rowBytes
        var earlyWalk = EarlyWalk(), earlyJoined: [JoinedRun] = []
        for (k, unit) in unitList.enumerated() {
            let r = unit.lowerBound, rowStart = r * rowBytes, back = Int(backs[r])
            if !joins[k] { pending = nil }
            if runs, back > 0 {
                (lastRun, pending) = (nil, nil)
                // A copy run: one match over its rows (a GPU invocation writes each row's share, `RowCopy`).
                Self.appendMatch(data, at: rowStart, length: unit.count * rowBytes, distance: back, pixel: pixelBytes, oldest: oldest, tokens: &tokens)
                entered = Int.max // the matcher entered nothing
            } else {
                // Matches join across the unit's rows; the unit's last one ends with it.
                match = MatchRun()
                if var seam = pending {
                    seam.unitStart = rowStart
                    match.seam = seam
                }
                let countAtStart = tokens.count
                for r in unit {
                    chooseRow(data, rowStart: r * rowBytes, copyBack: Int(backs[r]), oldest: oldest,
                              firstHashed: max(oldest, r * rowBytes - min(rowBytes, Self.hashReach)), hashBits: hashBits, seen: seen,
                              entered: &entered, match: &match, tokens: &tokens)
                }
                // The unit's last run, left for the next unit's first to join, unless the unit is that one
                // run and it could join the last unit's (seams join in parallel on the GPU: no chains).
                let had = match.length > 0, single = had && match.flushes == 0 && tokens.count == countAtStart
                let chained = single && joins[k] && lastRun.map { $0.distance == match.distance } == true
                let last = had ? MatchRun.Seam(unitStart: 0, start: match.start, length: match.length, distance: match.distance, from: tokens.count) : nil
                match.flush(data, pixel: pixelBytes, oldest: oldest, tokens: &tokens)
                (lastRun, pending) = (last, chained ? nil : last)
                if early != nil, let joined = match.joined { earlyJoined.append(joined) } // never the run a later seam joins
            }
            // Past its checkpoint's count where the unit ends there: zlib's. (The piece's limit is
            // checked at its end: a later seam may join, so a count before then is not yet the piece's.)
            let chosen = sentTokens + tokens.count
            if let next = checkpoints.first, unit.upperBound == next.rows {
                guard chosen <= next.maxTokens else { return nil }
                checkpoints.removeFirst()
            }
            // Full blocks out, but not a run the next unit may join.
            let held = pending?.from ?? tokens.count
            if let check = early, unit.upperBound >= check.rows.upperBound {
                tokens.walk(&earlyWalk, to: held, counting: earlyStart..<earlyEnd, joined: earlyJoined)
                if earlyWalk.position >= earlyEnd {
                    guard earlyWalk.count <= check.maxTokens else { return nil }
                    early = nil
                }
            }
            if held >= DeflateLayout.blockTokens {
                var sent = 0
                while held - sent >= DeflateLayout.blockTokens {
                    block(tokens.array(sent..<(sent + DeflateLayout.blockTokens))[...])
                    sent += DeflateLayout.blockTokens
                }
                if early != nil {
                    // Still open: every token sent starts before the early check's end (those of units before it,
                    // or walked to `held` above), so the walk passes them all and goes on from the first kept.
                    tokens.walk(&earlyWalk, to: sent, counting: earlyStart..<earlyEnd, joined: earlyJoined)
                    earlyWalk.index -= sent
                    earlyJoined = earlyJoined.dropFirst(earlyWalk.joined).map { JoinedRun(tokens: ($0.tokens.lowerBound - sent)..<($0.tokens.upperBound - sent), start: $0.start) }
                    earlyWalk.joined = 0
                }
                tokens.removeFirst(sent)
                sentTokens += sent
                pending?.from -= sent
            }
        }
        if let check = early {
            // A run from before the early check's row to the piece's end: every token is final now.
            tokens.walk(&earlyWalk, to: tokens.count, counting: earlyStart..<earlyEnd, joined: earlyJoined)
            guard earlyWalk.count <= check.maxTokens else { return nil }
        }
        return tokens.array(0..<tokens.count)
    }

    /// A match of `length` bytes at `at`, `distance` back, as tokens of 258 bytes, then one of
    /// what is left, or literals where 1 or 2 bytes are (as zlib's 258 and a literal: cut
    /// 256 + 3, an HD panel's rows of one colour were 1.37x zlib 6's bytes). A token whose bytes
    /// also repeat one `pixel` back, no further back than `oldest`, is written that
    /// distance when it costs fewer extra bits (issue 51): the plan's distance (a period,
    /// an equal row) is right but dear where a run of one colour lies, as in a `space`
    /// gap, 8 to 10 extra bits a token against none (the bench manifest 2.0% smaller).
    @inline(__always)
    static func appendMatch(_ data: UnsafePointer<UInt8>, at start: Int, length total: Int, distance: Int,
                                    pixel: Int, oldest: Int, tokens: inout TokenBuffer) {
        var at = start, left = total
        // Lengths are cut to 3-258 below; a distance deflate cannot write (an encoder's bug) leaves its
        // bytes literals: a larger file, never a stopped process or a wrong one.
        if !DeflateToken.isMatch(length: 3, distance: distance) { left = 0 }
        let cheaper = left > 0 && distance > pixel && extraBits(pixel) < extraBits(distance)
        while left >= 3 {
            let length = min(DeflateToken.maxLength, left)
            let repeats = cheaper && at - pixel >= oldest && memcmp(data + at, data + (at - pixel), length) == 0
            tokens.append(.match(length: length, distance: repeats ? pixel : distance))
            at += length
            left -= length
        }
        for i in at..<(start + total) { tokens.append(.literal(data[i])) }
    }

    /// One row's tokens (see `choose`), outside a copy run: bytes `rowStart..<rowStart + rowBytes`,
    /// the match being gathered taken from the row before in its unit and left for the next,
    /// `copyBack` bytes back from an equal row (0: none), reading no further back
    /// than `oldest`. The matcher's hash table holds the bytes from `firstHashed`
    /// (the row above, its last `hashReach` bytes) up to the byte being matched: the row above is
    /// entered whole when the matcher is first asked, the row's own bytes as it is asked.
    /// `entered`: from where every byte of the row before, but its last 2, was entered as it
    /// was asked (so entering the row above again is only its last 2); set for the next row.
    private func chooseRow(_ data: UnsafePointer<UInt8>, rowStart: Int, copyBack: Int, oldest: Int, firstHashed: Int,
                           hashBits: Int, seen: UnsafeMutablePointer<Int>, entered: inout Int, match: inout MatchRun,
                           tokens: inout TokenBuffer) {
        var matcher = Matcher(data: data, rowStart: rowStart, rowBytes: rowBytes, pixelBytes: pixelBytes, parts: parts, oldest: oldest,
                              firstHashed: firstHashed, enteredAbove: entered, hashBits: hashBits, seen: seen)
        entered = rowStart
        let rowEnd = rowStart + rowBytes, pixelBytes = self.pixelBytes, parts = self.parts
        var part = 0, i = rowStart, end = rowStart + parts[0].end, period = parts[0].period
        // The matcher's misses in a row in this part, and how many bytes it now skips (`skipShift`).
        var misses = 0, skip = 0
        while i < rowEnd {
            while i >= end {
                part += 1
                (end, period) = (rowStart + parts[part].end, parts[part].period)
                (misses, skip) = (0, 0)
            }
            let planned = copyBack > 0 ? (period > 0 ? period : copyBack) : period
            if match.length > 0, match.start + match.length == i,
               end - i < Self.shortPart || (planned > 0 && Self.extraBits(match.distance) <= Self.extraBits(planned)),
               memcmp(data + i, data + (i - match.distance), end - i) == 0 {
                // The match being gathered covers this part too: one run, not a new one, where the part
                // is short or the run's distance costs no more bits than the planned one.
                match.length += end - i
                i = end
                entered = i
            } else if planned > 0 {
                let filled = fillLength(data, at: i, partLeft: end - i, planned: planned, match: match)
                match.length += filled
                match.extend(at: i + filled, count: end - i - filled, distance: planned, data, pixel: pixelBytes, oldest: oldest, tokens: &tokens)
                i = end
                entered = i
            } else if skip > 0 {
                // Bytes the matcher skips after its misses: literals, not entered.
                if match.length > 0 { match.flush(data, pixel: pixelBytes, oldest: oldest, tokens: &tokens) }
                tokens.append(.literal(data[i]))
                i += 1
                skip -= 1
                entered = i
            } else {
                let found = matcher.longest(i, lastDistance: match.distance)
                if found.length >= Self.minMatch {
                    if found.length < Self.lazyBelow, i + 1 < end {
                        // One byte on, a longer match: this byte is a literal (zlib's lazy evaluation, one step).
                        let next = matcher.longest(i + 1, lastDistance: match.distance)
                        if next.length > found.length {
                            if match.length > 0 { match.flush(data, pixel: pixelBytes, oldest: oldest, tokens: &tokens) }
                            tokens.append(.literal(data[i]))
                            match.extend(at: i + 1, count: next.length, distance: next.distance, data, pixel: pixelBytes, oldest: oldest, tokens: &tokens)
                            i += 1 + next.length
                            entered = i
                            misses = 0
                            continue
                        }
                    }
                    match.extend(at: i, count: found.length, distance: found.distance, data, pixel: pixelBytes, oldest: oldest, tokens: &tokens)
                    i += found.length
                    entered = i
                    misses = 0
                } else {
                    if match.length > 0 { match.flush(data, pixel: pixelBytes, oldest: oldest, tokens: &tokens) }
                    tokens.append(.literal(data[i]))
                    i += 1
                    let near = (i - 1 - rowBytes >= oldest && data[i - 1 - rowBytes] == data[i - 1])
                        || (i - 1 - pixelBytes >= oldest && data[i - 1 - pixelBytes] == data[i - 1])
                    misses = near ? 0 : misses + 1
                    skip = min(misses >> Self.skipShift, Self.maxSkip)
                }
            }
        }
    }

    /// How many bytes of a planned part at `at` (`partLeft` bytes, `planned` back) the match
    /// being gathered takes first, where it ends at `at` at another distance: as many as still
    /// agree at its distance, up to the end of its last token (258 bytes), so that token is
    /// whole; zlib's longest match runs on the same way. A token saved where runs meet at
    /// a part's start (a row's end, a cap's edge): samples of HD 4.1% smaller, of the bench manifest 1.6%.
    @inline(__always)
    private func fillLength(_ data: UnsafePointer<UInt8>, at i: Int, partLeft: Int, planned: Int, match: MatchRun) -> Int {
        guard match.length > 0, match.start + match.length == i, match.distance != planned else { return 0 }
        let fill = (DeflateToken.maxLength - match.length % DeflateToken.maxLength) % DeflateToken.maxLength
        guard fill > 0, fill < partLeft else { return 0 }
        return Self.agreeing(data, i - match.distance, i, from: 0, limit: fill)
    }
}
