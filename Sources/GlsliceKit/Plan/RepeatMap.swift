/// What repeats in an output, told to the PNG encoder so it writes those
/// repeats as deflate matches instead of searching for them (issue 42): which
/// rows equal which, and, within each x span, the period after which every
/// row's pixels repeat. Built from a plan (`Plan/RepeatMap+Plan.swift`); `none`
/// says nothing, and the encoder then finds what it can by itself.
///
/// Rows are told as keys worked out a range at a time, so an encoder asks only
/// about the rows it writes and the window before them: memory follows the
/// piece, never the output's height.
package struct RepeatMap: Sendable {
    /// Two rows with equal keys have equal pixels.
    package struct RowKey: Hashable, Sendable {
        var high: UInt64
        var low: UInt64

        init(high: UInt64, low: UInt64) {
            self.high = high
            self.low = low
        }

        package func hash(into hasher: inout Hasher) { hasher.combine(mixed) }

        /// Folded to 64 bits (for `copies`' table).
        var mixed: UInt64 { (high &* 0x9E37_79B9_7F4A_7C15) ^ low }
    }

    /// The keys of the rows in a range; nil: no row is known to repeat.
    private let rowKeys: (@Sendable (Range<Int>) -> [RowKey])?
    /// Per x span: its destination and the smallest period, in pixels, of its
    /// columns (every pixel equals the one `period` to its left, from
    /// `destination.lowerBound + period` on, in every row); `period == count` when none repeats.
    let columnPeriods: [(destination: Range<Int>, period: Int)]
    /// `copies` of every row from the first, worked out ahead (`keepingRowKeys`).
    private var whole: [Int32]?
    /// Whether the keys of every row are kept (`keepingRowKeys`).
    private(set) var keepsRowKeys = false

    init(rowKeys: (@Sendable (Range<Int>) -> [RowKey])?, columnPeriods: [(destination: Range<Int>, period: Int)]) {
        self.rowKeys = rowKeys
        self.columnPeriods = columnPeriods
    }

    /// No repeats known.
    package static let none = RepeatMap(rowKeys: nil, columnPeriods: [])

    /// Outputs of at most this many rows get their row keys and whole-image copies worked out
    /// ahead (24 bytes a row, 1.5 MiB at most a job waiting in a queue), so the thread that
    /// encodes asks for none of them. (Filtered rows' copies depend on the row's bytes, known only
    /// once the colours are: worked out as they are asked, from the kept keys.)
    static let keptRows = 1 << 16

    /// Outputs of at most this many rows get their row keys kept while they are encoded
    /// (`RepeatDeflater`; 24 bytes a row, 12 MiB at most an encoding): the filter's `noneRows` and
    /// the pieces' copies read each row's keys about three times (two windows either side), and
    /// each time worked out its taps again (a 1 x 393,716 stretch's map cost more than its drawing).
    /// Taller outputs keep working them out a range at a time, their memory the window's.
    static let keptRowsWhileEncoding = 1 << 19

    /// This map with the keys of rows `0..<height`, and (`plainCopies`) `copies` of all of them, worked
    /// out now, where `height` is at most `limit` and they are not kept already. A job's map is made as it
    /// is prepared, off the GPU thread, whose own work was a third the rows' taps (issue 52), up to
    /// `keptRows`. Taller outputs keep working them out a range at a time. An encoder of filtered rows
    /// asks for no plain copies (its copies are `copies(filtered:)`).
    func keepingRowKeys(height: Int, upTo limit: Int = keptRows, plainCopies: Bool = true) -> RepeatMap {
        guard let rowKeys, !keepsRowKeys, height > 0, height <= limit else { return self }
        let keys = rowKeys(0..<height)
        var kept = RepeatMap(rowKeys: { rows in Array(keys[rows]) }, columnPeriods: columnPeriods)
        kept.keepsRowKeys = true
        if plainCopies { kept.whole = kept.copies(of: 0..<height, lookingBackTo: 0) }
        return kept
    }

    /// Per row of the whole output, the nearest earlier row with the same pixels (-1: none),
    /// where worked out ahead (`keepingRowKeys`); nil where not.
    var keptCopies: [Int32]? { whole }

    /// How rows are filtered (`RowFilter`), for `copies` and `noneRows`: the output's `height`,
    /// and how many rows back a copy may reach (`window`, 32 KiB of rows).
    struct Filtering: Equatable {
        var height: Int
        var window: Int
    }

    /// Per row of `rows`: the nearest earlier row, not before `earliest`, with the same pixels,
    /// or -1. `filtered`: the same bytes once filtered (`RowFilter`), as the nearest with the same
    /// `FilteredKey`: a row `noneRows` writes None copies one with the same pixels that it writes
    /// None too; any other, one with the same pixels and the same row above (a tiled texture's row
    /// equal to rows 10 and 16 back, whose row above equals only the one 16 back, copies that one).
    /// `known`: `noneRows` of some rows, already worked out (the scanline filter's), used where they
    /// hold every row read.
    func copies(of rows: Range<Int>, lookingBackTo earliest: Int, filtered: Filtering? = nil,
                known: (rows: Range<Int>, none: [Bool])? = nil) -> [Int32] {
        guard let rowKeys, !rows.isEmpty else { return [Int32](repeating: -1, count: rows.count) }
        let start = max(0, min(earliest, rows.lowerBound))
        guard let filtered else {
            if let whole, rows == 0..<whole.count { return whole }
            let keys = rowKeys(start..<rows.upperBound)
            return keys.withUnsafeBufferPointer { keys in Self.copies(of: rows, start: start, count: keys.count, key: { keys[$0] }, mixed: \.mixed) }
        }
        let lines: (keys: [RowKey], offset: Int, none: [Bool])
        if let known, known.rows.lowerBound <= start, known.rows.upperBound >= rows.upperBound {
            let lower = max(0, start - 1)
            lines = (rowKeys(lower..<rows.upperBound), start - lower,
                     Array(known.none[(start - known.rows.lowerBound)..<(rows.upperBound - known.rows.lowerBound)]))
        } else {
            lines = filteredLines(start..<rows.upperBound, filtering: filtered)
        }
        return Self.copies(of: rows, start: start, count: rows.upperBound - start, key: { i in
            let k = i + lines.offset, none = lines.none[i]
            return FilteredKey(row: lines.keys[k], above: none || k == 0 ? nil : lines.keys[k - 1], none: none)
        }, mixed: \.mixed)
    }

    /// Per row of `rows`: whether glslice's filter writes it None whatever its bytes (`RowFilter`).
    /// A row is so where a row with its pixels but another row above lies within `window` rows
    /// either way (rows equal to the row above aside): each would filter against its own row above,
    /// and the two, equal as pixels, would not be equal as bytes. Written None, they are, and one
    /// copies the other (a mirrored texture stretched by `linear` repeats its rows 13-30 back after
    /// other rows: the bench manifest's `texture.png` at 3x was 2.7x zlib 6's bytes with such rows
    /// filtered by their content). A row equal to the row above is left to its content (Up: zeros),
    /// but for the last of such a run where a later row with its pixels is within `window` of it and
    /// not of the run's first row: that row, the run's last and its first are None, so the later row
    /// copies the last and the last copies the first (the bench manifest's `2191.png`, `texture.png` at
    /// 2x, repeats a run's pixels 21 rows after its last row and 32 after its first: 1.20x zlib 6's
    /// bytes with the run Up, 0.76x so).
    /// The rule reads only the plan's keys, so two rows with the same `FilteredKey` within `window`
    /// rows are written alike, as `copies(filtered:)` needs, and the GPU's scanline pass is told it.
    func noneRows(_ rows: Range<Int>, filtering: Filtering) -> [Bool] {
        guard rowKeys != nil, !rows.isEmpty else { return [Bool](repeating: false, count: rows.count) }
        return filteredLines(rows, filtering: filtering).none
    }

    /// The keys of `rows` and the rows around them, from `offset` rows before `rows`'s first
    /// (its row above, where there is one), and per row of `rows` whether `noneRows` writes it None.
    private func filteredLines(_ rows: Range<Int>, filtering: Filtering) -> (keys: [RowKey], offset: Int, none: [Bool]) {
        guard let rowKeys else { return ([], 0, []) }
        let window = max(1, filtering.window)
        let lower = max(0, rows.lowerBound - 2 * window - 1), upper = min(filtering.height, rows.upperBound + 2 * window)
        let keys = rowKeys(lower..<max(upper, rows.upperBound))
        let count = keys.count
        // Per row read that is not equal to the row above (rows whose row above was not read are only
        // context), the one before and after it with its key: an open-addressed table, as `copies`'.
        var before = [Int32](repeating: -1, count: count), after = before
        let capacity = max(16, 1 << (Int.bitWidth - (2 * count).leadingZeroBitCount)), mask = capacity - 1
        var table = [Int32](repeating: -1, count: capacity), recurs = false
        for i in (lower > 0 ? 1 : 0)..<count where i == 0 || keys[i - 1] != keys[i] {
            var h = Int(truncatingIfNeeded: (keys[i].mixed &* 0xFF51_AFD7_ED55_8CCD) >> 40) & mask
            while table[h] >= 0, keys[Int(table[h])] != keys[i] { h = (h + 1) & mask }
            if table[h] >= 0 {
                recurs = true
                before[i] = table[h]
                after[Int(table[h])] = Int32(i)
            }
            table[h] = Int32(i)
        }
        // A row is alone where no row with its key and the same row above lies within `window` either
        // way (among the `noneLooks` nearest with its key each way): no row copies it, nor it one, as
        // they are filtered. Two such rows within `window` are written None, and one copies the other.
        let offset = rows.lowerBound - lower
        let near = max(lower > 0 ? 1 : 0, offset - window)..<min(count, offset + rows.count + window)
        var none = [Bool](repeating: false, count: rows.count)
        guard recurs else { return (keys, offset, none) } // no key recurs but in runs: none alone twice
        keys.withUnsafeBufferPointer { keys in
        before.withUnsafeBufferPointer { before in
        after.withUnsafeBufferPointer { after in
            /// The first row of the `noneLooks` nearest `r` with its key, within `window`, for which `stop` holds.
            func any(_ r: Int, _ stop: (Int) -> Bool) -> Bool {
                func walk(_ links: UnsafeBufferPointer<Int32>) -> Bool {
                    var j = Int(links[r]), looks = 0
                    while j >= 0, abs(r - j) <= window, looks < Self.noneLooks {
                        if stop(j) { return true }
                        j = Int(links[j])
                        looks += 1
                    }
                    return false
                }
                return walk(before) || walk(after)
            }
            var alone = [Bool](repeating: false, count: near.count)
            for r in near where r == 0 || keys[r - 1] != keys[r] {
                alone[r - near.lowerBound] = !any(r) { j in j > 0 && r > 0 && keys[j - 1] == keys[r - 1] }
            }
            for r in offset..<(offset + rows.count) where alone[r - near.lowerBound] {
                none[r - offset] = any(r) { j in alone[j - near.lowerBound] }
            }
            // A run's last row: a row whose nearest earlier row with its key ends a run of rows equal to
            // the row above, within `window` where the run's first row is not, copies that last row; the
            // three are None (the run no longer than `window`, so its last row copies its first).
            for r in offset..<min(count, offset + rows.count + 2 * window) where r > 0 && keys[r - 1] != keys[r] {
                let first = Int(before[r])
                guard first >= 0, r - first > window, r - first <= 2 * window else { continue }
                var last = first
                while last + 1 < r, last - first < window, keys[last + 1] == keys[first] { last += 1 }
                guard last > first, r - last <= window, keys[last + 1] != keys[first] else { continue }
                for y in [first, last, r] where y >= offset && y < offset + rows.count { none[y - offset] = true }
            }
        }}}
        return (keys, offset, none)
    }

    /// How many rows with a row's key `noneRows` looks at each way: a bound on its work where
    /// a key recurs in every other row (any rule both twins read alike keeps copies exact).
    static let noneLooks = 16

    /// A filtered row's key: its pixels and, unless written None (`noneRows`), its row above's.
    private struct FilteredKey: Equatable {
        var row: RowKey
        var above: RowKey?
        var none: Bool

        var mixed: UInt64 {
            row.mixed &+ (above.map { $0.mixed &* 0x2545_F491_4F6C_DD1D } ?? 0x9E37_79B9) &+ (none ? 0x632B_E59B_D9B4_E019 : 0)
        }
    }

    /// `copies` over the keys of rows `start..<rows.upperBound` (`count` of them, the `i`th `key(i)`).
    /// `mixed`: a key folded to 64 bits, to place it in the table.
    @inline(__always)
    private static func copies<Key: Equatable>(of rows: Range<Int>, start: Int, count: Int, key: (Int) -> Key,
                                               mixed: (Key) -> UInt64) -> [Int32] {
        var copies = [Int32](repeating: -1, count: rows.count)
        // The last row seen with each key: an open-addressed table of indices into the keys
        // (Swift's seeded Hasher, twice a row, was most of a tall output's encoding
        // time). It is asked once a run of equal rows, and told where the run ends.
        let capacity = max(16, 1 << (Int.bitWidth - (2 * count).leadingZeroBitCount)), mask = capacity - 1
        var table = [Int32](repeating: -1, count: capacity)
        table.withUnsafeMutableBufferPointer { table in
            func slot(_ wanted: Key) -> Int {
                var h = Int(truncatingIfNeeded: (mixed(wanted) &* 0xFF51_AFD7_ED55_8CCD) >> 40) & mask
                while table[h] >= 0, key(Int(table[h])) != wanted { h = (h + 1) & mask }
                return h
            }
            var runSlot = 0, previous: Key?
            for i in 0..<count {
                let y = start + i, here = key(i)
                defer { previous = here }
                if let previous, here == previous {
                    // A row equal to the one above copies it.
                    if y >= rows.lowerBound { copies[y - rows.lowerBound] = Int32(y - 1) }
                    continue
                }
                if i > 0 { table[runSlot] = Int32(i - 1) } // the run before ends: its last row is the nearest
                runSlot = slot(here)
                if y >= rows.lowerBound, table[runSlot] >= 0 { copies[y - rows.lowerBound] = Int32(start) + table[runSlot] }
            }
        }
        return copies
    }
}
