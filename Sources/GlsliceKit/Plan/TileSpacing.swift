/// CSS `space` along one span: `count` tiles whose starts are
/// `start(j) = origin + floor(gap + j × period + 0.5)` (docs/RENDERING.md §3),
/// each drawing its first `pixels` pixels (a pixel is in a tile when its
/// centre is). Both backends find a pixel's tile with `start(containing:)`.
package struct TileSpacing: Sendable, Equatable {
    package var origin: Int
    var gap: Double
    /// Tile length plus gap, in output pixels.
    var period: Double
    package var count: Int
    /// Pixels drawn per tile: ceil(tile length − 0.5); 0 draws nothing.
    package var pixels: Int
    /// The span's end: a tile never draws past it.
    package var end: Int

    package static func none(origin: Int, end: Int) -> TileSpacing {
        TileSpacing(origin: origin, gap: 0, period: 1, count: 0, pixels: 0, end: end)
    }

    @inline(__always)
    package func start(_ j: Int) -> Int {
        origin + Int((gap + Double(j) * period + 0.5 + Layout.epsilon).rounded(.down))
    }

    /// The start of the tile that draws pixel `x`, or nil in a gap: the last
    /// tile starting at or before `x`, found from an estimate and corrected
    /// with `start(_:)` itself, so it agrees with the formula exactly.
    @inline(__always)
    package func start(containing x: Int) -> Int? {
        guard count > 0, pixels > 0, x >= origin, x < end else { return nil }
        let estimate = (Double(x - origin) - gap) / period
        var j = estimate.isFinite ? Int(min(max(estimate.rounded(.down), 0), Double(count - 1))) : 0
        while j + 1 < count && start(j + 1) <= x { j += 1 }
        while j > 0 && start(j) > x { j -= 1 }
        let s = start(j)
        return s <= x && x - s < pixels ? s : nil
    }
}
