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
        var asIs = 0, less = 0
        for i in 1..<count {
            let v = raw[i], d = raw[i] &- above[i]
            asIs += Int(min(v, 0 &- v))
            less += Int(min(d, 0 &- d))
        }
        if less < asIs {
            out[0] = up
            for i in 1..<count { out[i] = raw[i] &- above[i] }
        } else {
            out.update(from: raw, count: count)
            out[0] = none
        }
    }
}
