import CPNG
import Foundation

/// glslice deflate's row filter (issue 51): a row is written None or Up (PNG filter 2,
/// each byte less the byte above), by the sums of its bytes taken as signed (libpng's
/// heuristic). A palette row is Up where that sum is under 2/3 of its sum as it is (`paletteUpLess`);
/// an RGB or RGBA row only where it is under a tenth (`rgbUpDivisor`), a tie going to None. A gradient's rows,
/// or rows that differ from the row above in a few places, become runs of one byte that
/// the rows around them repeat.
///
/// The choice is a function of the row and the row above alone, so two rows equal
/// with equal rows above filter equally: the plan's copies hold on filtered rows
/// where the rows above are copies too, and its periods hold as they are (Up keeps every
/// column's period; Sub or Paeth would not). But a row the plan says is None whatever its
/// bytes (`RepeatMap.noneRows`: rows equal as pixels with other rows above) is None, so it and
/// another such row are copies (`RepeatMap.copies(filtered:)`).
/// `Shaders/scanlines.comp` (modes 2 and 3) is its GPU twin.
enum RowFilter {
    static let none: UInt8 = 0
    static let up: UInt8 = 2
    /// An RGB or RGBA row is Up only where its sum less the row above is under 1/this of its
    /// sum as it is: a smooth row (a stretched gradient's), not a resampled texture's, whose
    /// rows Up by libpng's rule were 1.12x the bytes of None (the HD set's RGB outputs, zlib 6).
    /// The HD set 4.0% smaller, the giants 27%, 64² noise stretched to 4000² 70%; the bench
    /// manifest 0.1% (session 12, docs/BENCHMARKS-LOG.md). At 1/2, the HD set was 4.9% larger.
    static let rgbUpDivisor = 10
    /// A palette row is Up only where its sum less the row above is under 2/3 of its sum as it is
    /// (`less * paletteUpLess < asIs * paletteUpAsIs`). Rows of noise-like indices sum alike either
    /// way, and Up by a coin's toss broke the repeats between them that zlib finds (round six: 16
    /// colours repeating every 2 rows, coded by zlib 6 over such rows, 1.24x its bytes over rows as
    /// they are; shifted rows 1.4-1.7x). At 2/3 those are 1.00x, and the bench manifest 0.6% smaller
    /// with `PieceGuard` (4/5 left 12 of 400 shifted rows Up, 1.36x; 1/2 made the manifest 0.5%
    /// larger; never Up, 6.4%: docs/BENCHMARKS-LOG.md).
    static let paletteUpLess = 3
    static let paletteUpAsIs = 2
    /// RGB and RGBA rows of at most this many bytes (past the filter byte) are not filtered: a
    /// 1 x 20,000,000 gradient's filtering cost 0.2 s of 1.6 for 0.2% of its bytes.
    private static let rgbShortestFiltered = 33

    /// Whether glslice's deflate filters an image's rows: a palette's always, RGB or RGBA
    /// rows only from `rgbShortestFiltered` bytes on (`rowBytes` counts the filter byte); no
    /// rows zlib codes from the start (`PieceGuard.narrow`).
    /// The one place this is decided: the GPU's scanline pass is told it per image.
    static func filters(channels: Int, rowBytes: Int) -> Bool {
        !PieceGuard.narrow(rowBytes: rowBytes) && (channels == 1 || rowBytes - 1 >= rgbShortestFiltered)
    }

    /// Writes `raw` (a scanline, its filter byte first, `count` bytes) filtered into `out`,
    /// against `above` (the raw row above; nil for the first row, whose above is zeros);
    /// `palette`: a row of palette indices (else RGB or RGBA); `asIs`: None whatever its bytes (`RepeatMap.noneRows`).
    static func apply(_ raw: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, into out: UnsafeMutablePointer<UInt8>, count: Int,
                      palette: Bool, asIs: Bool = false) {
        guard let above, count > 1, !asIs else {
            out.update(from: raw, count: count)
            out[0] = none
            return
        }
        let data = raw + 1, over = above + 1, n = count - 1
        if equal(data, over, n) {
            // A row equal to the one above (a stretch's): Up is zeros, its sum 0, which None ties
            // only when the row is zeros too (its first byte 0 and each equal to the next).
            let zeros = data[0] == 0 && (n == 1 || equal(data, data + 1, n - 1))
            out[0] = zeros ? none : up
            (out + 1).update(repeating: 0, count: n)
            return
        }
        let (asIs, less) = sums(data, over, n)
        if palette ? less * paletteUpLess < asIs * paletteUpAsIs : less * rgbUpDivisor < asIs {
            out[0] = up
            gs_row_filter_up(data, over, out + 1, n) // a loop the C compiler vectorizes
        } else {
            out.update(from: raw, count: count)
            out[0] = none
        }
    }

    /// Whether `n` bytes at `a` and `b` agree: a short row byte by byte, not through `memcmp` (a
    /// 1 x 393,716 stretch called it twice a row, 5% of its encoding).
    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard n <= 16 else { return memcmp(a, b, n) == 0 }
        for k in 0..<n where a[k] != b[k] { return false }
        return true
    }

    /// `count` bytes of filtered rows (`apply`'s, `rowBytes` each, the first against zeros) as they
    /// were before: every row None (`PieceGuard` codes a whole image so, as `--compression zlib` does).
    static func unfiltered(_ data: UnsafePointer<UInt8>, count: Int, rowBytes: Int) -> [UInt8] {
        var rows = [UInt8](repeating: 0, count: count)
        rows.withUnsafeMutableBufferPointer { out in
            for start in stride(from: 0, to: count - rowBytes + 1, by: rowBytes) {
                out[start] = none
                if data[start] == up && start > 0 {
                    for k in 1..<rowBytes { out[start + k] = data[start + k] &+ out[start - rowBytes + k] }
                } else {
                    for k in 1..<rowBytes { out[start + k] = data[start + k] }
                }
            }
        }
        return rows
    }

    /// The two sums over `n` bytes, each byte taken as signed (0 to 128): as they are, and
    /// less the byte above (`gs_row_filter_sums`, a loop the C compiler vectorizes).
    private static func sums(_ data: UnsafePointer<UInt8>, _ over: UnsafePointer<UInt8>, _ n: Int) -> (asIs: Int, less: Int) {
        var asIs: UInt64 = 0, less: UInt64 = 0
        gs_row_filter_sums(data, over, n, &asIs, &less)
        return (Int(asIs), Int(less))
    }
}
