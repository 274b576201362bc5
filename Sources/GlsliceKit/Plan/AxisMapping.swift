/// How one axis of a cell turns destination pixels into source coordinates
/// (SPEC §3). Written once here; the CPU loop evaluates it per pixel and the
/// GPU turns it into texture coordinates, so both sample the same `u`.
public enum AxisMapping: Sendable, Equatable {
    /// `u = s0 + (x + 0.5 − origin) × num / den`, texel indices clamped to the segment.
    /// Fixed segments and `stretch` (`num = n`, `den = L`).
    case clamped(origin: Double, num: Double, den: Double)
    /// `u = s0 + mod((x + 0.5 − origin) × num / den, n)`, texel indices wrapped.
    /// `tile` and `repeat` (`1/k`) and `round` (`n/T`).
    case wrapped(origin: Double, num: Double, den: Double)
    /// CSS `space`: whole tiles `tileLength` pixels long at `starts`, each
    /// `u = s0 + (x + 0.5 − start) / k`, clamped; pixels between tiles are transparent.
    case spaced(starts: [Int], tileLength: Double, k: Double)

    public enum Addressing: Sendable { case clamp, wrap }

    public var addressing: Addressing {
        if case .wrapped = self { return .wrap }
        return .clamp
    }
}

/// One segment of one axis placed in the destination.
public struct AxisSpan: Sendable, Equatable {
    public var segment: Segment
    /// Destination pixels `[P, Q)`; may be empty.
    public var destination: Range<Int>
    public var mapping: AxisMapping

    /// The source coordinate `u` sampled by destination pixel `x`, or nil when
    /// `x` falls in a `space` gap (transparent).
    @inline(__always)
    public func sourceCoordinate(at x: Int) -> Double? {
        let s0 = Double(segment.start)
        let n = Double(segment.length)
        let centre = Double(x) + 0.5
        switch mapping {
        case .clamped(let origin, let num, let den):
            return s0 + (centre - origin) * num / den
        case .wrapped(let origin, let num, let den):
            return s0 + positiveRemainder((centre - origin) * num / den, n)
        case .spaced(let starts, let tileLength, let k):
            for start in starts {
                let offset = centre - Double(start)
                if offset >= 0 && offset < tileLength { return s0 + offset / k }
            }
            return nil
        }
    }

    /// The texel a (possibly out-of-segment) index `i` reads: clamp keeps it
    /// inside `[s0, s1 − 1]`, wrap maps it to `s0 + mod(i − s0, n)`. Sampling
    /// never leaves the segment, so end caps never bleed.
    @inline(__always)
    public func address(_ i: Int) -> Int {
        switch mapping.addressing {
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
