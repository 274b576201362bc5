/// docs/RENDERING.md §2 and the per-mode constants of §3, per axis. This is the only place
/// that turns a lattice and a size into destination geometry.
enum Layout {
    /// Tolerance for comparisons of real lengths that are whole in exact arithmetic
    /// (e.g. `3 × (2/3)`), so rounding noise never flips a decision.
    static let epsilon = 1e-9

    /// Places `segments` into `destination` pixels at scale `k`, with `mode`
    /// for the scalable ones, and `small` when the caps do not fit.
    static func axis(
        _ segments: [Segment], destination: Int, k: Double, mode: ResizeMode, small: SmallTarget = .proportional,
        caps: CapWidths? = nil, axisName: String
    ) throws -> [AxisSpan] {
        let natural = naturalLengths(segments, k: k, caps: caps)
        let fixed = natural.reduce(0, +)
        if small == .clip, fixed > Double(destination) + epsilon * max(1, Double(destination)) {
            return clipped(segments, natural: natural, destination: destination)
        }
        let lengths = try lengths(segments, natural: natural, destination: destination, axisName: axisName)
        let tileScale = caps?.tileScale ?? k
        // Snap the running sums, not the lengths: no gaps, no overlaps.
        var boundaries = [0]
        var running = 0.0
        for (i, length) in lengths.enumerated() {
            running += length
            let snapped = i == lengths.count - 1 ? destination : Int((running + 0.5 + epsilon).rounded(.down))
            boundaries.append(min(max(snapped, boundaries[boundaries.count - 1]), destination))
        }
        return segments.enumerated().map { i, segment in
            let dest = boundaries[i]..<boundaries[i + 1]
            return AxisSpan(segment: segment, destination: dest,
                            mapping: mapping(for: segment, destination: dest, k: tileScale, mode: mode))
        }
    }

    /// `--small clip` (§2 step 3's alternative): the caps keep their length
    /// `len × k` (boundaries snapped as in step 4), scalable segments get none,
    /// and the caps before the first scalable segment keep their place from
    /// the start while the rest is placed from the far end; the first group
    /// wins where they meet (Godot's NinePatchRect). A cut cap keeps its
    /// mapping, so it shows the part of itself that is left.
    static func clipped(_ segments: [Segment], natural lengths: [Double], destination: Int) -> [AxisSpan] {
        var natural = [0]
        var running = 0.0
        for length in lengths {
            running += length
            natural.append(Int((running + 0.5 + epsilon).rounded(.down)))
        }
        let leading = segments.firstIndex(where: \.scalable) ?? segments.count
        let cut = min(destination, natural[leading])
        let shift = max(0, natural[segments.count] - destination)
        return segments.enumerated().map { i, segment in
            let length = natural[i + 1] - natural[i]
            let origin = i < leading ? natural[i] : natural[i] - shift
            let visible = i < leading ? 0..<cut : cut..<destination
            let low = min(max(origin, visible.lowerBound), visible.upperBound)
            let high = min(max(origin + length, low), visible.upperBound)
            let mapping = AxisMapping.clamped(origin: Double(origin), num: Double(segment.length), den: Double(max(length, 1)))
            return AxisSpan(segment: segment, destination: low..<high, mapping: mapping)
        }
    }

    /// Each segment's length before the rest is shared: a fixed one's `len × k`
    /// (or its cap width, `--border-width`), a scalable one's 0.
    static func naturalLengths(_ segments: [Segment], k: Double, caps: CapWidths?) -> [Double] {
        segments.indices.map { i in
            let segment = segments[i]
            if segment.scalable { return 0 }
            if let caps {
                if i == 0 { return caps.lead }
                if i == segments.count - 1 { return caps.trail }
            }
            return Double(segment.length) * k
        }
    }

    /// Real destination lengths per segment (docs/RENDERING.md §2 steps 1–3),
    /// from their `natural` lengths.
    static func lengths(_ segments: [Segment], natural: [Double], destination: Int, axisName: String) throws -> [Double] {
        let d = Double(destination)
        let fixed = natural.reduce(0, +)
        let scalable = segments.filter(\.scalable).reduce(0) { $0 + $1.length }
        let rest = d - fixed
        if fixed <= d + epsilon * max(1, d) {
            if scalable > 0 {
                return segments.indices.map { segments[$0].scalable ? Double(segments[$0].length) * max(rest, 0) / Double(scalable) : natural[$0] }
            }
            if rest >= 1 - epsilon {
                throw InputErrors.noResizableArea(axis: axisName, longer: rest)
            }
            if rest <= epsilon { return natural }
        }
        // Caps larger than the output (or a sub-pixel remainder): shrink the caps.
        guard fixed > 0 else { return segments.map { _ in 0 } }
        return natural.map { $0 * d / fixed }
    }

    /// The mapping of docs/RENDERING.md §3's table for one placed segment.
    static func mapping(for segment: Segment, destination: Range<Int>, k: Double, mode: ResizeMode) -> AxisMapping {
        let n = Double(segment.length)
        let p = Double(destination.lowerBound)
        let l = Double(destination.count)
        let stretched = AxisMapping.clamped(origin: p, num: n, den: max(l, 1))
        guard segment.scalable, l > 0 else { return stretched }
        let tile = n * k
        switch mode {
        case .stretch:
            return stretched
        case .auto:
            return segment.length == 1 ? stretched : .wrapped(origin: p, num: 1, den: k)
        case .tile:
            return .wrapped(origin: p, num: 1, den: k)
        case .repeat:
            let offset = ((l - tile) / 2 + 0.5 + epsilon).rounded(.down)
            return .wrapped(origin: p + offset, num: 1, den: k)
        case .round:
            // n / T with T = L / c, kept as the whole numbers n·c and L so a
            // coordinate that is exactly a texel boundary stays exact in floating point.
            let count = max(1, (l / tile + 0.5 + epsilon).rounded(.down))
            return .wrapped(origin: p, num: n * count, den: l)
        case .space:
            // A pixel is in a tile when its centre is: ceil(tile − 0.5) pixels a tile.
            let pixels = (tile - 0.5 - epsilon).rounded(.up)
            let count = (l / tile + epsilon).rounded(.down)
            guard count >= 1, pixels >= 1 else {
                return .spaced(.none(origin: destination.lowerBound, end: destination.upperBound), k: k)
            }
            // pixels ≥ 1 means tile > 0.5 px, so count < 2L: whole numbers that fit an Int.
            let gap = (l - count * tile) / (count + 1)
            return .spaced(TileSpacing(origin: destination.lowerBound, gap: gap, period: tile + gap, count: Int(count),
                                       pixels: Int(pixels), end: destination.upperBound), k: k)
        }
    }
}
