/// One segment of one axis placed in the destination.
package struct AxisSpan: Sendable, Equatable {
    package var segment: Segment
    /// Destination pixels `[P, Q)`; may be empty.
    package var destination: Range<Int>
    var mapping: AxisMapping
    /// The drawn part of `destination` and how it samples; nil when nothing
    /// is drawn (an empty destination, or `space` where no tile fits).
    package var sampling: AxisSampling?

    package init(segment: Segment, destination: Range<Int>, mapping: AxisMapping) {
        self.segment = segment
        self.destination = destination
        self.mapping = mapping
        switch mapping {
        case .clamped(let origin, let num, let den):
            sampling = AxisSampling(destination: destination, origin: origin, num: num, den: den, addressing: .clamp)
        case .wrapped(let origin, let num, let den):
            sampling = AxisSampling(destination: destination, origin: origin, num: num, den: den, addressing: .wrap)
        case .spaced(let tiles, let k):
            let drawn = tiles.count > 0 && tiles.pixels > 0
            sampling = drawn ? AxisSampling(destination: destination, origin: Double(destination.lowerBound), num: 1, den: k,
                                      addressing: .clamp, tiles: tiles) : nil
        }
        if sampling?.destination.isEmpty == true { sampling = nil }
    }

    /// True when every pixel samples a texel centre at k = 1, so both filters copy exactly.
    var isExactCopy: Bool {
        sampling.map { $0.num == $0.den } ?? true
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
