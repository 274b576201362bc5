import CPNG
import Foundation

/// `fast`'s row filter (issue 51): a palette row is written None or Up (PNG filter 2,
/// each byte less the byte above), whichever has the smaller sum of bytes taken as
/// signed (libpng's heuristic), a tie going to None. A gradient's rows, or rows that
/// differ from the row above in a few places, become runs of one byte that the rows
/// around them repeat. On palettes only: on RGB, a resampled texture's rows filtered
/// this way were 1.2x zlib's bytes (docs/BENCHMARKS.md).
///
/// The choice is a function of the row and the row above alone, so two rows equal
/// with equal rows above filter equally: the plan's copies hold on filtered rows
/// where the rows above are copies too (`RepeatMap.copies(aboveToo:)`), and its
/// periods hold as they are (Up keeps every column's period; Sub or Paeth would not).
/// `Shaders/scanlines.comp` (modes 2 and 3) is its GPU twin.
enum RowFilter {
    static let none: UInt8 = 0
    static let up: UInt8 = 2

    /// Writes `raw` (a scanline, its filter byte first, `count` bytes) filtered into `out`,
    /// against `above` (the raw row above; nil for the first row, whose above is zeros).
    static func apply(_ raw: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, into out: UnsafeMutablePointer<UInt8>, count: Int) {
        guard let above, count > 1 else {
            out.update(from: raw, count: count)
            out[0] = none
            return
        }
        let data = raw + 1, over = above + 1, n = count - 1
        if memcmp(data, over, n) == 0 {
            // A row equal to the one above (a stretch's): Up is zeros, its sum 0, which None ties
            // only when the row is zeros too (its first byte 0 and each equal to the next).
            let zeros = data[0] == 0 && (n == 1 || memcmp(data, data + 1, n - 1) == 0)
            out[0] = zeros ? none : up
            (out + 1).update(repeating: 0, count: n)
            return
        }
        let (asIs, less) = sums(data, over, n)
        if less < asIs {
            out[0] = up
            for i in 0..<n { out[1 + i] = data[i] &- over[i] }
        } else {
            out.update(from: raw, count: count)
            out[0] = none
        }
    }

    /// The two sums over `n` bytes, each byte taken as signed (0 to 128): as they are, and
    /// less the byte above (`gs_row_filter_sums`, a loop the C compiler vectorizes).
    private static func sums(_ data: UnsafePointer<UInt8>, _ over: UnsafePointer<UInt8>, _ n: Int) -> (asIs: Int, less: Int) {
        var asIs: UInt64 = 0, less: UInt64 = 0
        gs_row_filter_sums(data, over, n, &asIs, &less)
        return (Int(asIs), Int(less))
    }
}
