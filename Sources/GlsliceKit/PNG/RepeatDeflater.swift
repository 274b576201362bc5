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
///   that tries four places per byte: one pixel back, one row back, the last
///   match's distance, and the last two places the same four bytes were seen (a
///   hash table with chains of two).
/// - A part the match being gathered also covers continues it, where that
///   costs no more bits (docs/DESIGN.md, "The deflate writer"); else that match
///   takes what it covers of the part up to the end of its last token.
///
/// Every choice depends only on the rows and the map, so a piece of the image
/// gives the same bytes on any thread (`SegmentedZlib` runs pieces in
/// parallel). The tokens are coded by `DeflateBlockWriter`.
struct RepeatDeflater: Sendable {
    private let rowBytes: Int
    /// The matcher's "one pixel back", in bytes (1 for indices).
    private let pixelBytes: Int
    private let map: RepeatMap
    /// Whether rows are filtered (`RowFilter`), so a copy needs equal rows above too.
    private let filtersRows: Bool
    /// A row in parts, left to right from the filter byte: runs of bytes that
    /// repeat `period` bytes back (their x span's period), or with `period` 0,
    /// left to the matcher. A handful per x span, whatever the width.
    private let parts: [(end: Int, period: Int)]
    /// Tokens per block: each block gets its own Huffman tables.
    private static let blockTokens = 1 << 15
    static let maxDistance = 32768
    /// The matcher's hash table holds at most this many bytes of the row above (its
    /// last ones): as many as the table has entries.
    private static let hashReach = 4096
    /// Parts shorter than this continue the match being gathered where they can, whatever its distance.
    private static let shortPart = 512
    /// A match the matcher finds shorter than this is weighed against the one a byte on
    /// (lazy evaluation, one step): HD 1.1% smaller at 32, 0.6% at 16 (zlib 6 uses 16 with chains of 128).
    private static let lazyBelow = 32
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
    ///   - filtersRows: whether rows are `RowFilter`'s (None or Up, by their content): a row
    ///     copies an equal row only where the rows above them are equal too.
    init(map: RepeatMap, width: Int, rowBytes: Int, bitsPerPixel: Int, filtersRows: Bool = false) {
        self.rowBytes = rowBytes
        self.filtersRows = filtersRows
        pixelBytes = max(1, bitsPerPixel / 8)
        self.map = map
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

    /// The extra bits deflate writes with a match `distance` back.
    private static func extraBits(_ distance: Int) -> Int { DeflateToken.distanceExtra[Int(DeflateToken.distanceCode[distance - 1])] }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
    private static func lcm(_ a: Int, _ b: Int) -> Int { a / gcd(a, b) * b }

    /// Raw deflate for `rows` rows starting at row `firstRow`, at `data`, with
    /// `history` bytes before `data` readable (the window before a piece).
    /// Ends on a byte: with the final block when `last`, else with an empty
    /// stored block (a sync flush), so pieces concatenate.
    func deflate(_ data: UnsafePointer<UInt8>, history: Int, firstRow: Int, rows: Int, last: Bool) -> [UInt8] {
        var writer = DeflateBlockWriter(capacity: min(1 << 20, rows * rowBytes / 8 + 64))
        let rest = choose(data, history: history, firstRow: firstRow, rows: rows) { writer.writeBlock($0, last: false) }
        if last {
            writer.writeBlock(rest, last: true)
        } else {
            if !rest.isEmpty { writer.writeBlock(rest, last: false) }
            writer.writeEmptyStoredBlock()
        }
        return writer.finish()
    }

    /// Every token for those rows, in one array (for tests).
    func tokens(_ data: UnsafePointer<UInt8>, history: Int, firstRow: Int, rows: Int) -> [DeflateToken] {
        var all: [DeflateToken] = []
        let rest = choose(data, history: history, firstRow: firstRow, rows: rows) { all += $0 }
        return all + rest
    }

    /// The hash table's size, 2^bits: twice a row's bytes (the row and the one
    /// above are what it holds), at least 256 entries and at most 4,096, so a
    /// GPU invocation keeps one in private memory.
    static func hashBits(rowBytes: Int) -> Int {
        var bits = 8
        while bits < 12 && 1 << bits < 2 * rowBytes { bits += 1 }
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
    /// - elsewhere: the matcher's longest match of 4 bytes or more, ending in the
    ///   row, or a literal; under 32 bytes, a longer one a byte on makes this byte a literal;
    /// - but a part the match being gathered also covers continues it, where the
    ///   part is short or that distance costs no more extra bits; else, a planned part's
    ///   first bytes it covers, up to the end of its last token (`fillLength`).
    /// Matches at the same distance that meet are joined before they are cut
    /// into tokens of up to 258 bytes. Each full block of tokens goes to `block`
    /// as it fills (memory stays at one block, however long a row); the rest is returned.
    private func choose(_ data: UnsafePointer<UInt8>, history: Int, firstRow: Int, rows: Int,
                        block: (ArraySlice<DeflateToken>) -> Void) -> [DeflateToken] {
        // Rows append to one array, passed inout (a closure capturing it cost a
        // dynamic exclusivity check a token); full blocks go out after each unit.
        // At most a token a byte, and two blocks' worth (256 KiB) at most: a small output's buffer is small.
        var tokens = TokenBuffer(capacity: min(2 * Self.blockTokens, rows * rowBytes + 16))
        defer { tokens.deallocate() }
        let hashBits = Self.hashBits(rowBytes: rowBytes)
        // Where each 4-byte hash was last seen, piece-relative, and (from 2^hashBits on) where before
        // that: a chain of two (HD 2.3% smaller than one; four, 0.2% more). An entry before the row above is stale.
        let seen = UnsafeMutablePointer<Int32>.allocate(capacity: 2 << hashBits)
        seen.initialize(repeating: Int32.min, count: 2 << hashBits)
        defer { seen.deallocate() }
        let oldest = -min(history, Self.maxDistance), rowBytes = self.rowBytes
        let backs = copyBacks(firstRow: firstRow, rows: rows, history: history)
        var entered = Int.max
        let runs = parts.count == 1
        var match = MatchRun()
        for unit in units(backs: backs, pieceRows: rows) {
            let r = unit.lowerBound, rowStart = r * rowBytes, back = Int(backs[r])
            if runs, back > 0 {
                // A copy run: one match over its rows (a GPU invocation writes each row's share, `RowCopy`).
                Self.appendMatch(data, at: rowStart, length: unit.count * rowBytes, distance: back, pixel: pixelBytes, oldest: oldest, tokens: &tokens)
                entered = Int.max // the matcher entered nothing
            } else {
                // Matches join across the unit's rows; the unit's last one ends with it.
                match = MatchRun()
                for r in unit {
                    chooseRow(data, rowStart: r * rowBytes, copyBack: Int(backs[r]), oldest: oldest,
                              firstHashed: max(oldest, r * rowBytes - min(rowBytes, Self.hashReach)), hashBits: hashBits, seen: seen,
                              entered: &entered, match: &match, tokens: &tokens)
                }
                match.flush(data, pixel: pixelBytes, oldest: oldest, tokens: &tokens)
            }
            if tokens.count >= Self.blockTokens {
                var sent = 0
                while tokens.count - sent >= Self.blockTokens {
                    block(tokens.array(sent..<(sent + Self.blockTokens))[...])
                    sent += Self.blockTokens
                }
                tokens.removeFirst(sent)
            }
        }
        return tokens.array(0..<tokens.count)
    }

    /// The rows `0..<backs.count` in units, each chosen by one GPU invocation with its
    /// state carried from row to row (issue 51): a copy run (`RowCopy`) is a unit of its
    /// own; other rows go together while their bytes stay within `unitBytes` (6 KiB), never
    /// across a piece's start (every `pieceRows` rows). A row's tokens are those that start in it.
    func units(backs: [Int32], pieceRows: Int) -> [Range<Int>] {
        let runs = parts.count == 1, rows = backs.count
        var units: [Range<Int>] = []
        var start = 0
        while start < rows {
            var end = start + 1
            let pieceEnd = min(rows, (start / pieceRows + 1) * pieceRows)
            if runs, backs[start] > 0 {
                while end < pieceEnd, backs[end] == backs[start] { end += 1 }
            } else {
                while end < pieceEnd, !(runs && backs[end] > 0), (end + 1 - start) * rowBytes <= Self.unitBytes { end += 1 }
            }
            units.append(start..<end)
            start = end
        }
        return units
    }

    /// Per row of `firstRow..<firstRow + rows`: how many bytes back an equal row
    /// lies (with an equal row above it too, when rows are filtered), where one does
    /// within reach (32 KiB, and no further back than the `history` bytes before
    /// `firstRow`), else 0.
    func copyBacks(firstRow: Int, rows: Int, history: Int) -> [Int32] {
        let reach = min(history, Self.maxDistance)
        let earlier = map.copies(of: firstRow..<(firstRow + rows), lookingBackTo: firstRow - reach / rowBytes, aboveToo: filtersRows)
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
    /// the tokens that start in it).
    func invocations(firstRow: Int, rows: Int, history: Int, pieceRows: Int) -> (copies: [RowCopy], units: [Range<Int>]) {
        let backs = copyBacks(firstRow: firstRow, rows: rows, history: history)
        var copies = backs.map { RowCopy(back: $0) }
        let units = units(backs: backs, pieceRows: pieceRows)
        guard parts.count == 1 else { return (copies, units) } // periodic parts: a copied row is its parts' matches
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
        return (copies, split)
    }

    /// Adds the row's parts as a GPU reads them (`GPUDeflater`) to `words`: (end, period) pairs.
    func appendPackedParts(to words: inout [UInt32]) {
        for part in parts {
            words.append(UInt32(part.end))
            words.append(UInt32(part.period))
        }
    }

    /// The shape a GPU needs to choose this deflater's tokens.
    var rowBytesAndPixelBytes: (rowBytes: Int, pixelBytes: Int) { (rowBytes, pixelBytes) }

    /// A match of `length` bytes at `at`, `distance` back, as tokens of up to 258
    /// bytes (none left of 1 or 2), and literals for what is under 3. A token whose bytes
    /// also repeat one `pixel` back, no further back than `oldest`, is written that
    /// distance when it costs fewer extra bits (issue 51): the plan's distance (a period,
    /// an equal row) is right but dear where a run of one colour lies, as in a `space`
    /// gap, 8 to 10 extra bits a token against none (the bench manifest 2.0% smaller).
    @inline(__always)
    private static func appendMatch(_ data: UnsafePointer<UInt8>, at start: Int, length total: Int, distance: Int,
                                    pixel: Int, oldest: Int, tokens: inout TokenBuffer) {
        var at = start, left = total
        let cheaper = distance > pixel && extraBits(pixel) < extraBits(distance)
        while left >= 3 {
            var length = min(258, left)
            if (1...2).contains(left - length) { length = left - 3 }
            let repeats = cheaper && at - pixel >= oldest && memcmp(data + at, data + (at - pixel), length) == 0
            tokens.append(.match(length: length, distance: repeats ? pixel : distance))
            at += length
            left -= length
        }
        for i in at..<(at + left) { tokens.append(.literal(data[i])) }
    }

    /// One row's tokens (see `choose`), outside a copy run: bytes `rowStart..<rowStart + rowBytes`,
    /// the match being gathered taken from the row before in its unit and left for the next,
    /// `copyBack` bytes back from an equal row (0: none), reading no further back
    /// than `oldest`. The matcher's hash table holds the bytes from `firstHashed`
    /// (the row above, its last `hashReach` bytes) up to the byte being matched: the row above is
    /// entered whole when the matcher is first asked, the row's own bytes as it is asked.
    /// `entered`: from where every byte of the row before, but its last 3, was entered as it
    /// was asked (so entering the row above again is only its last 3); set for the next row.
    private func chooseRow(_ data: UnsafePointer<UInt8>, rowStart: Int, copyBack: Int, oldest: Int, firstHashed: Int,
                           hashBits: Int, seen: UnsafeMutablePointer<Int32>, entered: inout Int, match: inout MatchRun,
                           tokens: inout TokenBuffer) {
        var matcher = Matcher(data: data, rowStart: rowStart, rowBytes: rowBytes, pixelBytes: pixelBytes, parts: parts, oldest: oldest,
                              firstHashed: firstHashed, enteredAbove: entered, hashBits: hashBits, seen: seen)
        entered = rowStart
        let rowEnd = rowStart + rowBytes, pixelBytes = self.pixelBytes, parts = self.parts
        var part = 0, i = rowStart, end = rowStart + parts[0].end, period = parts[0].period
        while i < rowEnd {
            while i >= end {
                part += 1
                (end, period) = (rowStart + parts[part].end, parts[part].period)
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
            } else {
                let found = matcher.longest(i, lastDistance: match.distance)
                if found.length >= 4 {
                    if found.length < Self.lazyBelow, i + 1 < end {
                        // One byte on, a longer match: this byte is a literal (zlib's lazy evaluation, one step).
                        let next = matcher.longest(i + 1, lastDistance: match.distance)
                        if next.length > found.length {
                            if match.length > 0 { match.flush(data, pixel: pixelBytes, oldest: oldest, tokens: &tokens) }
                            tokens.append(.literal(data[i]))
                            match.extend(at: i + 1, count: next.length, distance: next.distance, data, pixel: pixelBytes, oldest: oldest, tokens: &tokens)
                            i += 1 + next.length
                            entered = i
                            continue
                        }
                    }
                    match.extend(at: i, count: found.length, distance: found.distance, data, pixel: pixelBytes, oldest: oldest, tokens: &tokens)
                    i += found.length
                    entered = i
                } else {
                    if match.length > 0 { match.flush(data, pixel: pixelBytes, oldest: oldest, tokens: &tokens) }
                    tokens.append(.literal(data[i]))
                    i += 1
                }
            }
        }
    }

    /// The matcher of one row (`chooseRow`): the longest match at `i` of 4 bytes or more, ending in
    /// the row, among one pixel back, one row back, the last match's distance and the last two places
    /// with the same four bytes (entering `i` there); a tie keeps the one tried first. A shorter one is
    /// never taken, so a candidate is tried only where its first four bytes agree. Its hash table holds
    /// the bytes from `firstHashed` (the row above, its last `hashReach` bytes) up to the byte being
    /// matched: the row above is entered whole when the matcher is first asked, the row's own bytes as
    /// it is asked. State in a struct, as `Shaders/deflate_tokens.comp` keeps it in variables (nested
    /// functions sharing the match state cost a dynamic exclusivity check and heap boxes a row).
    private struct Matcher {
        let data: UnsafePointer<UInt8>
        let rowStart: Int, rowEnd: Int, rowBytes: Int, pixelBytes: Int, oldest: Int, firstHashed: Int
        /// The row's parts (`RepeatDeflater.parts`), for entering the row above part by part.
        let parts: [(end: Int, period: Int)]
        /// From where every byte of the row before, but its last 3, was entered as it was asked.
        let enteredAbove: Int
        let hashShift: UInt32
        /// Where each 4-byte hash was last seen, and (`seen2`) where before that.
        let seen: UnsafeMutablePointer<Int32>, seen2: UnsafeMutablePointer<Int32>
        var hashedRowAbove = false

        init(data: UnsafePointer<UInt8>, rowStart: Int, rowBytes: Int, pixelBytes: Int, parts: [(end: Int, period: Int)], oldest: Int,
             firstHashed: Int, enteredAbove: Int, hashBits: Int, seen: UnsafeMutablePointer<Int32>) {
            self.data = data
            self.parts = parts
            self.rowStart = rowStart
            rowEnd = rowStart + rowBytes
            self.rowBytes = rowBytes
            self.pixelBytes = pixelBytes
            self.oldest = oldest
            self.firstHashed = firstHashed
            self.enteredAbove = enteredAbove
            hashShift = UInt32(32 - hashBits)
            self.seen = seen
            seen2 = seen + (1 << hashBits)
        }

        @inline(__always) private func word(_ i: Int) -> UInt32 { UnsafeRawPointer(data + i).loadUnaligned(as: UInt32.self) }

        /// The match at `i` from `candidate`, if its first four bytes agree and it is within reach and
        /// longer than `best`: then `best` and `bestDistance` become its length and distance.
        @inline(__always)
        private func consider(_ candidate: Int, at i: Int, here: UInt32, limit: Int, best: inout Int, bestDistance: inout Int) {
            let distance = i - candidate
            guard candidate >= oldest, distance > 0, distance <= RepeatDeflater.maxDistance, word(candidate) == here else { return }
            let length = RepeatDeflater.agreeing(data, candidate, i, from: 4, limit: limit)
            if length > best { (best, bestDistance) = (length, distance) }
        }

        /// The longest match at `i` (length 0: none of 4 bytes), `lastDistance` the last match's distance.
        mutating func longest(_ i: Int, lastDistance: Int) -> (length: Int, distance: Int) {
            let limit = min(258, rowEnd - i)
            guard limit >= 4 else { return (0, 0) }
            let here = word(i)
            var best = 0, bestDistance = 0
            consider(i - pixelBytes, at: i, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
            if best < limit { consider(i - rowBytes, at: i, here: here, limit: limit, best: &best, bestDistance: &bestDistance) }
            if best < limit, lastDistance > 0, lastDistance != pixelBytes, lastDistance != rowBytes {
                consider(i - lastDistance, at: i, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
            }
            if !hashedRowAbove {
                hashedRowAbove = true
                enterRowAbove()
            }
            let h = Int((UInt32(littleEndian: here) &* RepeatDeflater.hashMultiplier) >> hashShift)
            if best < limit, seen[h] >= Int32(firstHashed) {
                consider(Int(seen[h]), at: i, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
            }
            if best < limit, seen2[h] >= Int32(firstHashed) {
                consider(Int(seen2[h]), at: i, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
            }
            seen2[h] = seen[h]
            seen[h] = Int32(i)
            return (best, bestDistance)
        }

        /// Enters the row above from `firstHashed` (only its last 3 bytes when the row before entered
        /// every other one as it was asked), part by part, so a tiled part skips what its period
        /// repeats (`gs_hash_enter`).
        private func enterRowAbove() {
            var j = enteredAbove <= firstHashed ? max(firstHashed, rowStart - 3) : firstHashed
            let above = rowStart - rowBytes
            for part in parts where above + part.end > j {
                let to = above + part.end
                gs_hash_enter(data, j, to, rowStart, seen, seen2, hashShift, part.period > 0 ? part.period : pixelBytes, RepeatDeflater.hashMultiplier)
                j = to
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
        let fill = (258 - match.length % 258) % 258
        guard fill > 0, fill < partLeft else { return 0 }
        return Self.agreeing(data, i - match.distance, i, from: 0, limit: fill)
    }

    /// How many bytes from `from` on agree at `a` and `b`, up to `limit`: 8 at a time,
    /// the first that differs found from their difference's lowest set bit (little-endian).
    @inline(__always)
    private static func agreeing(_ data: UnsafePointer<UInt8>, _ a: Int, _ b: Int, from: Int, limit: Int) -> Int {
        var n = from
        while n + 8 <= limit {
            let x = UnsafeRawPointer(data + a + n).loadUnaligned(as: UInt64.self) ^ UnsafeRawPointer(data + b + n).loadUnaligned(as: UInt64.self)
            if x != 0 { return n + UInt64(littleEndian: x).trailingZeroBitCount >> 3 }
            n += 8
        }
        while n < limit, data[a + n] == data[b + n] { n += 1 }
        return n
    }

    /// The match being gathered, carried from row to row within a unit: `length`
    /// bytes from `start`, `distance` back (the matcher's "last match's distance"
    /// after it is flushed, until the unit ends).
    fileprivate struct MatchRun {
        var start = 0
        var length = 0
        var distance = 0

        /// Writes the match as tokens, if any.
        mutating func flush(_ data: UnsafePointer<UInt8>, pixel: Int, oldest: Int, tokens: inout TokenBuffer) {
            RepeatDeflater.appendMatch(data, at: start, length: length, distance: distance, pixel: pixel, oldest: oldest, tokens: &tokens)
            length = 0
        }

        /// `count` bytes at `at`, `distance` back: the same match where it meets this one at its
        /// distance, else a new one (this one written first).
        @inline(__always)
        mutating func extend(at: Int, count: Int, distance: Int, _ data: UnsafePointer<UInt8>, pixel: Int, oldest: Int,
                             tokens: inout TokenBuffer) {
            if length > 0, distance == self.distance, start + length == at {
                length += count
            } else {
                flush(data, pixel: pixel, oldest: oldest, tokens: &tokens)
                (start, length, self.distance) = (at, count, distance)
            }
        }
    }
}

extension RepeatDeflater {
    /// The tokens being chosen, in memory of their own: an append is a store and
    /// a count (an array's append checked its uniqueness and capacity each time,
    /// a token a byte on noise). Freed by its owner (`deallocate`).
    fileprivate struct TokenBuffer {
        private var base: UnsafeMutablePointer<DeflateToken>
        private var capacity: Int
        private(set) var count = 0

        init(capacity: Int) {
            self.capacity = max(16, capacity)
            base = .allocate(capacity: self.capacity)
        }

        @inline(__always)
        mutating func append(_ token: DeflateToken) {
            if count == capacity { grow() }
            (base + count).initialize(to: token)
            count += 1
        }

        private mutating func grow() {
            let larger = UnsafeMutablePointer<DeflateToken>.allocate(capacity: 2 * capacity)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            (base, capacity) = (larger, 2 * capacity)
        }

        /// Tokens `range`, copied out.
        func array(_ range: Range<Int>) -> [DeflateToken] { Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)) }

        /// Drops the first `n` tokens, moving the rest to the front.
        mutating func removeFirst(_ n: Int) {
            base.moveUpdate(from: base + n, count: count - n)
            count -= n
        }

        func deallocate() { base.deallocate() }
    }
}
