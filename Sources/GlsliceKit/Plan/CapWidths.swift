/// CSS `border-image-width` along one axis, in output pixels: how long the
/// leading and trailing caps are drawn, whatever their slice, and the scale
/// the scalable segment's tiles take (docs/RENDERING.md §2).
package struct CapWidths: Sendable, Equatable {
    var lead: Double
    var trail: Double
    /// Output pixels per source pixel for tiles along this axis: CSS scales an
    /// edge's tiles by the cross cap's factor (the top cap's height over its
    /// slice, for tiles along x), so that a tile keeps its aspect ratio.
    var tileScale: Double

    init(lead: Double, trail: Double, tileScale: Double) {
        self.lead = lead
        self.trail = trail
        self.tileScale = tileScale
    }

    /// Both axes' widths from `widths` (points at `outputScale`) for a 3×3
    /// `lattice`; `k` is the tile scale where CSS's cross factors are 0 or undefined.
    package static func make(_ widths: Insets, outputScale: Double, lattice: Lattice, k: Double) throws -> PerAxis<CapWidths> {
        func caps(_ segments: [Segment], _ axis: String) throws -> (lead: Int, trail: Int) {
            guard segments.filter(\.scalable).count <= 1 else {
                throw UsageErrors.borderWidthNeedsOneBand(axis: axis, bands: segments.filter(\.scalable).count)
            }
            let lead = segments.first.map { $0.scalable ? 0 : $0.length } ?? 0
            let trail = segments.count > 1 ? segments.last.map { $0.scalable ? 0 : $0.length } ?? 0 : 0
            return (lead, trail)
        }
        let x = try caps(lattice.x, "x"), y = try caps(lattice.y, "y")
        let px = (top: widths.top * outputScale, left: widths.left * outputScale,
                  bottom: widths.bottom * outputScale, right: widths.right * outputScale)
        for (name, width, slice) in [("top", px.top, y.lead), ("left", px.left, x.lead),
                                     ("bottom", px.bottom, y.trail), ("right", px.right, x.trail)] where width > 0 && slice == 0 {
            throw UsageErrors.borderWidthOfEmptySlice(name, width: width)
        }
        /// CSS: the first cross factor that is neither 0 nor infinite, else unscaled (here: k).
        func factor(_ a: (Double, Int), _ b: (Double, Int)) -> Double {
            for (width, slice) in [a, b] where width > 0 && slice > 0 { return width / Double(slice) }
            return k
        }
        return PerAxis(x: CapWidths(lead: px.left, trail: px.right, tileScale: factor((px.top, y.lead), (px.bottom, y.trail))),
                       y: CapWidths(lead: px.top, trail: px.bottom, tileScale: factor((px.left, x.lead), (px.right, x.trail))))
    }
}
