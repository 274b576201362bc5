/// How one axis of a cell turns destination pixels into source coordinates
/// (docs/RENDERING.md §3). Written once here and evaluated once, by `AxisSpan.offset`
/// into the plan's `AxisTaps`, which both drawers read: so both sample the same `u`.
package enum AxisMapping: Sendable, Equatable {
    /// `u = s0 + (x + 0.5 − origin) × num / den`, texel indices clamped to the segment.
    /// Fixed segments and `stretch` (`num = n`, `den = L`).
    case clamped(origin: Double, num: Double, den: Double)
    /// `u = s0 + mod((x + 0.5 − origin) × num / den, n)`, texel indices wrapped.
    /// `tile` and `repeat` (`1/k`) and `round` (`n/T`, kept as `n·c / L`).
    case wrapped(origin: Double, num: Double, den: Double)
    /// CSS `space`: whole tiles, each `u = s0 + (x + 0.5 − start) / k`,
    /// clamped; pixels between tiles are transparent. Which tile a pixel is in
    /// is arithmetic (`TileSpacing`), never a list: the count of tiles is the
    /// input's to choose (a 1-px tile at 1/64 scale made millions).
    case spaced(TileSpacing, k: Double)

    /// How a texel index outside the segment comes back into it.
    package enum Addressing: Sendable { case clamp, wrap }
}
