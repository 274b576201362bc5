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
    /// `copies` of every row from the first, both ways, worked out ahead (`keepingRowKeys`).
    private var whole: (plain: [Int32], aboveToo: [Int32])?

    init(rowKeys: (@Sendable (Range<Int>) -> [RowKey])?, columnPeriods: [(destination: Range<Int>, period: Int)]) {
        self.rowKeys = rowKeys
        self.columnPeriods = columnPeriods
    }

    /// No repeats known.
    package static let none = RepeatMap(rowKeys: nil, columnPeriods: [])

    /// Outputs of at most this many rows get their row keys and whole-image copies worked out
    /// ahead (24 bytes a row, 1.5 MiB at most a job waiting in a queue), so the thread that
    /// encodes asks for none of them.
    static let keptRows = 1 << 16

    /// This map with the keys of rows `0..<height`, and `copies` of all of them (both ways: whether
    /// rows are filtered is known only once the colours are), worked out now, where `height` is at
    /// most `keptRows`. A job's map is made as it is prepared, off the GPU thread, whose own work
    /// was a third the rows' taps (issue 52). Taller outputs keep working them out a range at a time.
    func keepingRowKeys(height: Int) -> RepeatMap {
        guard let rowKeys, height > 0, height <= Self.keptRows else { return self }
        let keys = rowKeys(0..<height)
        var kept = RepeatMap(rowKeys: { rows in Array(keys[rows]) }, columnPeriods: columnPeriods)
        kept.whole = (kept.copies(of: 0..<height, lookingBackTo: 0), kept.copies(of: 0..<height, lookingBackTo: 0, aboveToo: true))
        return kept
    }

    /// Per row of the whole output, the nearest earlier row with the same pixels (-1: none),
    /// where worked out ahead (`keepingRowKeys`); nil where not.
    var keptCopies: [Int32]? { whole?.plain }

    /// Per row of `rows`: the nearest earlier row, not before `earliest`, with
    /// the same pixels, or -1. `aboveToo`: the nearest whose row above equals this
    /// row's row above as well, as filtered rows need (`RowFilter`): a tiled texture's
    /// row equal to rows 10 and 16 back, whose row above equals only the one 16 back,
    /// copies that one (the nearest alone, its row above unequal, left it a matcher's row).
    func copies(of rows: Range<Int>, lookingBackTo earliest: Int, aboveToo: Bool = false) -> [Int32] {
        guard let rowKeys, !rows.isEmpty else { return [Int32](repeating: -1, count: rows.count) }
        if let whole, rows == 0..<whole.plain.count { return aboveToo ? whole.aboveToo : whole.plain }
        let start = max(0, min(earliest, rows.lowerBound))
        guard aboveToo else {
            let keys = rowKeys(start..<rows.upperBound)
            return keys.withUnsafeBufferPointer { keys in Self.copies(of: rows, start: start, count: keys.count, key: { keys[$0] }, mixed: \.mixed) }
        }
        // Each row's key paired with the one above's (read from one row earlier); the first
        // row read has none known, so it pairs with nothing (as every row does without `aboveToo`).
        // Paired as they are asked, not kept: an array of pairs was 40 bytes a row (a 1 x 393,716
        // stretch touched 16 MB for them, half its encoding's page faults).
        let first = max(0, start - 1), skip = start - first
        let keys = rowKeys(first..<rows.upperBound)
        return keys.withUnsafeBufferPointer { keys in
            Self.copies(of: rows, start: start, count: keys.count - skip, key: { i in
                PairKey(row: keys[i + skip], above: i + skip > 0 ? keys[i + skip - 1] : nil)
            }, mixed: \.mixed)
        }
    }

    /// A row's key and the key of the row above it (nil: not known, or not asked).
    private struct PairKey: Equatable {
        var row: RowKey
        var above: RowKey?

        var mixed: UInt64 {
            row.mixed &+ (above.map { $0.mixed &* 0x2545_F491_4F6C_DD1D } ?? 0x9E37_79B9)
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
