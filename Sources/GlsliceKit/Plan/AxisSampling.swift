/// How a span's drawn pixels sample their segment: one affine mapping,
/// `u = s0 + (x + 0.5 − origin) × num / den`, wrapped into the segment or not;
/// in `space` mode the origin is each pixel's tile start (`tiles`), and pixels
/// in gaps are transparent. `AxisTaps` evaluates it per column or row, once,
/// for both backends.
package struct AxisSampling: Sendable, Equatable {
    package var destination: Range<Int>
    package var origin: Double
    package var num: Double
    package var den: Double
    package var addressing: AxisMapping.Addressing
    /// `space` tiles: the origin is the start of the pixel's tile.
    package var tiles: TileSpacing?

    /// `u − s0` for destination pixel `x`, before addressing texel indices;
    /// nil where nothing is drawn (a `space` gap).
    @inline(__always)
    package func offset(at x: Int, length n: Int) -> Double? {
        var from = origin
        if let tiles {
            guard let start = tiles.start(containing: x) else { return nil }
            from = Double(start)
        }
        let v = (Double(x) + 0.5 - from) * num / den
        return addressing == .wrap ? positiveRemainder(v, Double(n)) : v
    }

    /// How many pixels of `destination` are drawn.
    var drawnCount: Int {
        guard let tiles else { return destination.count }
        return destination.reduce(0) { $0 + (tiles.start(containing: $1) == nil ? 0 : 1) }
    }
}

/// The non-negative remainder `mod(a, n)`.
@inline(__always)
func positiveRemainder(_ a: Double, _ n: Double) -> Double {
    let r = a.truncatingRemainder(dividingBy: n)
    let m = r < 0 ? r + n : r
    return m >= n ? 0 : m
}
