/// One segment of one axis placed in the destination, with the one rule its
/// pixels sample by (`mapping`). `AxisTaps` evaluates it per column or row,
/// once, for both drawers.
package struct AxisSpan: Sendable, Equatable {
    package var segment: Segment
    /// Destination pixels `[P, Q)`; may be empty.
    package var destination: Range<Int>
    package var mapping: AxisMapping
    /// The drawn part of `destination`; nil when nothing is drawn (an empty
    /// destination, or `space` where no tile fits).
    package var drawn: Range<Int>?

    package init(segment: Segment, destination: Range<Int>, mapping: AxisMapping) {
        self.segment = segment
        self.destination = destination
        self.mapping = mapping
        if case .spaced(let tiles, _) = mapping, !(tiles.count > 0 && tiles.pixels > 0) {
            drawn = nil
        } else {
            drawn = destination.isEmpty ? nil : destination
        }
    }

    /// `space`'s tiles: a pixel's origin is the start of its tile.
    var tiles: TileSpacing? {
        if case .spaced(let tiles, _) = mapping { return tiles }
        return nil
    }

    /// How texel indices outside the segment come back into it.
    var addressing: AxisMapping.Addressing {
        if case .wrapped = mapping { return .wrap }
        return .clamp
    }

    /// `u − s0` for destination pixel `x`, before addressing texel indices: the
    /// affine `(x + 0.5 − origin) × num / den`, wrapped into the segment for
    /// `wrapped`; in `space` the origin is the pixel's tile start, and nil in a gap.
    @inline(__always)
    func offset(at x: Int) -> Double? {
        switch mapping {
        case .clamped(let origin, let num, let den):
            return (Double(x) + 0.5 - origin) * num / den
        case .wrapped(let origin, let num, let den):
            return positiveRemainder((Double(x) + 0.5 - origin) * num / den, Double(segment.length))
        case .spaced(let tiles, let k):
            guard let start = tiles.start(containing: x) else { return nil }
            return (Double(x) + 0.5 - Double(start)) * 1 / k
        }
    }

    /// The period, in destination pixels, after which `offset` gives exactly the same
    /// value again (so every tap repeats): a `tile` or `repeat` at a whole origin and a
    /// scale of 1 or a power of two, where `(x + 0.5 − origin) × num / den` and its
    /// remainder are exact. Nil where rounding could make one period differ from the next.
    var exactPeriod: Int? {
        guard case .wrapped(let origin, let num, let den) = mapping, origin == origin.rounded(), origin.magnitude < 0x1p40,
              num == num.rounded(), den == den.rounded(), (1...0x1p20).contains(num), (1...0x1p20).contains(den) else { return nil }
        if num == den { return segment.length } // (v·n)/n is v, exactly: v·n is a multiple of ½ below 2⁵³
        if num == 1, Int(den).nonzeroBitCount == 1 { return segment.length * Int(den) } // v/2^k is exact
        return nil
    }

    /// How many pixels of `destination` are drawn.
    var drawnCount: Int {
        guard let drawn else { return 0 }
        guard let tiles else { return drawn.count }
        guard tiles.count > 0, tiles.pixels > 0 else { return 0 }
        // Tile by tile, not pixel by pixel (`start(containing:)` a pixel was 6% of preparing a job):
        // tile j holds its first `pixels` pixels, up to where tile j + 1 starts (starts never fall).
        let lower = max(drawn.lowerBound, tiles.origin), upper = min(drawn.upperBound, tiles.end)
        var total = 0, start = tiles.start(0)
        for j in 0..<tiles.count {
            let next = j + 1 < tiles.count ? tiles.start(j + 1) : Int.max
            let from = max(start, lower), to = min(start + tiles.pixels, next, upper)
            if to > from { total += to - from }
            start = next
        }
        return total
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
            let n = segment.length, d = i - segment.start
            if d >= 0 && d < n { return i } // most taps: no division
            return segment.start + (d % n + n) % n
        }
    }
}

/// `x.rounded(.down)`, exactly, without libm's `floor` call (a call a tap): below 2⁵² in
/// magnitude, truncating to an integer and stepping down for a negative fraction is the same.
@inline(__always)
func floorExact(_ x: Double) -> Double {
    guard x.magnitude < 0x1p52 else { return x.rounded(.down) }
    let t = Double(Int(x))
    return t > x ? t - 1 : t
}

/// The non-negative remainder `mod(a, n)`.
@inline(__always)
func positiveRemainder(_ a: Double, _ n: Double) -> Double {
    if a >= 0, a < 0x1p52, n >= 1 {
        // fmod's exact remainder without the libm call (a tenth of a tall tiled output's
        // time): k·n is exact below 2⁵², and a − k·n is exact (Sterbenz) once k is right.
        var k = floorExact(a / n)
        var r = a - k * n
        if r < 0 {
            k -= 1
            r = a - k * n
        } else if r >= n {
            k += 1
            r = a - k * n
        }
        return r >= n ? 0 : r
    }
    let r = a.truncatingRemainder(dividingBy: n)
    let m = r < 0 ? r + n : r
    return m >= n ? 0 : m
}
