/// How one axis of a cell turns destination pixels into source coordinates
/// (docs/RENDERING.md §3). Written once here; the CPU loop evaluates it per pixel and the
/// GPU turns it into texture coordinates, so both sample the same `u`.
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

/// CSS `space` along one span: `count` tiles whose starts are
/// `start(j) = origin + floor(gap + j × period + 0.5)` (docs/RENDERING.md §3),
/// each drawing its first `pixels` pixels (a pixel is in a tile when its
/// centre is). Both backends find a pixel's tile with `start(containing:)`.
package struct TileSpacing: Sendable, Equatable {
    package var origin: Int
    package var gap: Double
    /// Tile length plus gap, in output pixels.
    package var period: Double
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

/// A run of destination pixels that share one affine source mapping:
/// `u = s0 + (x + 0.5 − origin) × num / den`, wrapped into the segment or not.
/// A span is one piece; in `space` mode the piece's origin is each pixel's
/// tile start (`tiles`), and pixels in gaps are transparent. The CPU evaluates
/// pieces per pixel; the GPU draws one quad per piece with these numbers as
/// per-quad attributes and does the same per-pixel arithmetic in its shader.
package struct AxisPiece: Sendable, Equatable {
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
    package var drawnCount: Int {
        guard let tiles else { return destination.count }
        return destination.reduce(0) { $0 + (tiles.start(containing: $1) == nil ? 0 : 1) }
    }
}

/// One segment of one axis placed in the destination.
package struct AxisSpan: Sendable, Equatable {
    package var segment: Segment
    /// Destination pixels `[P, Q)`; may be empty.
    package var destination: Range<Int>
    package var mapping: AxisMapping
    /// The drawn parts of `destination`, in order.
    package var pieces: [AxisPiece]

    package init(segment: Segment, destination: Range<Int>, mapping: AxisMapping) {
        self.segment = segment
        self.destination = destination
        self.mapping = mapping
        switch mapping {
        case .clamped(let origin, let num, let den):
            pieces = [AxisPiece(destination: destination, origin: origin, num: num, den: den, addressing: .clamp)]
        case .wrapped(let origin, let num, let den):
            pieces = [AxisPiece(destination: destination, origin: origin, num: num, den: den, addressing: .wrap)]
        case .spaced(let tiles, let k):
            let drawn = tiles.count > 0 && tiles.pixels > 0
            pieces = [AxisPiece(destination: drawn ? destination : destination.lowerBound..<destination.lowerBound,
                                origin: Double(destination.lowerBound), num: 1, den: k, addressing: .clamp, tiles: tiles)]
        }
        pieces.removeAll { $0.destination.isEmpty }
    }

    /// True when every pixel samples a texel centre at k = 1, so both filters copy exactly.
    package var isExactCopy: Bool {
        pieces.allSatisfy { $0.num == $0.den }
    }

    /// The texel a (possibly out-of-segment) index `i` reads: clamp keeps it
    /// inside `[s0, s1 − 1]`, wrap maps it to `s0 + mod(i − s0, n)`. Sampling
    /// never leaves the segment, so end caps never bleed.
    @inline(__always)
    package func address(_ i: Int, _ addressing: AxisMapping.Addressing) -> Int {
        switch addressing {
        case .clamp:
            return min(max(i, segment.start), segment.end - 1)
        case .wrap:
            let n = segment.length
            return segment.start + ((i - segment.start) % n + n) % n
        }
    }
}

/// The non-negative remainder `mod(a, n)`.
@inline(__always)
func positiveRemainder(_ a: Double, _ n: Double) -> Double {
    let r = a.truncatingRemainder(dividingBy: n)
    let m = r < 0 ? r + n : r
    return m >= n ? 0 : m
}
