/// How one axis of a cell turns destination pixels into source coordinates
/// (docs/RENDERING.md §3). Written once here; the CPU loop evaluates it per pixel and the
/// GPU turns it into texture coordinates, so both sample the same `u`.
public enum AxisMapping: Sendable, Equatable {
    /// `u = s0 + (x + 0.5 − origin) × num / den`, texel indices clamped to the segment.
    /// Fixed segments and `stretch` (`num = n`, `den = L`).
    case clamped(origin: Double, num: Double, den: Double)
    /// `u = s0 + mod((x + 0.5 − origin) × num / den, n)`, texel indices wrapped.
    /// `tile` and `repeat` (`1/k`) and `round` (`n/T`, kept as `n·c / L`).
    case wrapped(origin: Double, num: Double, den: Double)
    /// CSS `space`: whole tiles `tileLength` pixels long at `starts`, each
    /// `u = s0 + (x + 0.5 − start) / k`, clamped; pixels between tiles are transparent.
    case spaced(starts: [Int], tileLength: Double, k: Double)

    /// How a texel index outside the segment comes back into it.
    public enum Addressing: Sendable { case clamp, wrap }
}

/// A run of destination pixels that share one affine source mapping:
/// `u = s0 + (x + 0.5 − origin) × num / den`, wrapped into the segment or not.
/// A span is one piece, or one piece per whole tile in `space` mode; pixels of
/// a span outside its pieces are transparent. The CPU evaluates pieces per
/// pixel; the GPU draws one quad per piece with these numbers as uniforms.
public struct AxisPiece: Sendable, Equatable {
    public var destination: Range<Int>
    public var origin: Double
    public var num: Double
    public var den: Double
    public var addressing: AxisMapping.Addressing

    /// `u − s0` for destination pixel `x`, before addressing texel indices.
    @inline(__always)
    public func offset(at x: Int, length n: Int) -> Double {
        let v = (Double(x) + 0.5 - origin) * num / den
        return addressing == .wrap ? positiveRemainder(v, Double(n)) : v
    }
}

/// One segment of one axis placed in the destination.
public struct AxisSpan: Sendable, Equatable {
    public var segment: Segment
    /// Destination pixels `[P, Q)`; may be empty.
    public var destination: Range<Int>
    public var mapping: AxisMapping
    /// The drawn parts of `destination`, in order.
    public var pieces: [AxisPiece]

    public init(segment: Segment, destination: Range<Int>, mapping: AxisMapping) {
        self.segment = segment
        self.destination = destination
        self.mapping = mapping
        switch mapping {
        case .clamped(let origin, let num, let den):
            pieces = [AxisPiece(destination: destination, origin: origin, num: num, den: den, addressing: .clamp)]
        case .wrapped(let origin, let num, let den):
            pieces = [AxisPiece(destination: destination, origin: origin, num: num, den: den, addressing: .wrap)]
        case .spaced(let starts, let tileLength, let k):
            // Pixel x belongs to the tile at `start` when its centre is in
            // [start, start + tileLength): x − start < ceil(tileLength − 0.5).
            let count = Int((tileLength - 0.5 - Layout.epsilon).rounded(.up))
            pieces = starts.map { start in
                let end = min(start + max(count, 0), destination.upperBound)
                return AxisPiece(destination: start..<max(start, end), origin: Double(start), num: 1, den: k,
                                 addressing: .clamp)
            }
        }
        pieces.removeAll { $0.destination.isEmpty }
    }

    /// True when every pixel samples a texel centre at k = 1, so both filters copy exactly.
    public var isExactCopy: Bool {
        pieces.allSatisfy { $0.num == $0.den }
    }

    /// The texel a (possibly out-of-segment) index `i` reads: clamp keeps it
    /// inside `[s0, s1 − 1]`, wrap maps it to `s0 + mod(i − s0, n)`. Sampling
    /// never leaves the segment, so end caps never bleed.
    @inline(__always)
    public func address(_ i: Int, _ addressing: AxisMapping.Addressing) -> Int {
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
