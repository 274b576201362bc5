/// Per-column (or per-row) sampling decisions for the pixels `range` of one
/// axis: the one place where a pixel's texels, weight and visibility are
/// decided. The CPU's loops read them; the GPU uploads them as an integer
/// texture and its shader only fetches and blends (docs/RENDERING.md §5), so
/// both write the same bytes. Precomputed so the pixel loop does no division,
/// no addressing and no allocation. Arrays are indexed by `x − range.lowerBound`; a window of an
/// axis, never more than `CPUDrawer.window` columns or one strip's rows, so
/// their memory is bounded whatever the output's length (17 bytes a pixel
/// over a 100,000,000-px row took 1.7 GB).
struct AxisTaps: Sendable {
    /// Fixed-point weight scale: weights are in `0...one`.
    static let shift: UInt64 = 16
    static let one: UInt32 = 1 << 16

    let range: Range<Int>
    /// First and second texel (absolute source indices, already addressed).
    var first: [Int32]
    var second: [Int32]
    /// Weight of `second`; 0 means `first` alone (an exact texel).
    var weight: [UInt32]
    /// False in `space` gaps: the pixel stays transparent.
    var visible: [Bool]
    /// Which span owns each destination pixel.
    var spanIndex: [Int32]

    /// Whether these taps hold every pixel of `pixels`.
    func covers(_ pixels: Range<Int>) -> Bool { range.lowerBound <= pixels.lowerBound && pixels.upperBound <= range.upperBound }

    init(spans: [AxisSpan], range: Range<Int>, filter: Filter) {
        self.range = range
        var first = [Int32](repeating: 0, count: range.count), second = first, spanIndex = [Int32](repeating: -1, count: range.count)
        var weight = [UInt32](repeating: 0, count: range.count), visible = [Bool](repeating: false, count: range.count)
        // Filled through pointers: five array stores a pixel, each checking its array's
        // uniqueness and bounds, were most of the taps' time.
        first.withUnsafeMutableBufferPointer { first in
            second.withUnsafeMutableBufferPointer { second in
                weight.withUnsafeMutableBufferPointer { weight in
                    visible.withUnsafeMutableBufferPointer { visible in
                        spanIndex.withUnsafeMutableBufferPointer { spanIndex in
                            Self.fill(spans: spans, range: range, filter: filter, first: first, second: second,
                                      weight: weight, visible: visible, spanIndex: spanIndex)
                        }
                    }
                }
            }
        }
        self.first = first
        self.second = second
        self.weight = weight
        self.visible = visible
        self.spanIndex = spanIndex
    }

    private static func fill(spans: [AxisSpan], range: Range<Int>, filter: Filter, first: UnsafeMutableBufferPointer<Int32>,
                             second: UnsafeMutableBufferPointer<Int32>, weight: UnsafeMutableBufferPointer<UInt32>,
                             visible: UnsafeMutableBufferPointer<Bool>, spanIndex: UnsafeMutableBufferPointer<Int32>) {
        let base = range.lowerBound
        for (index, span) in spans.enumerated() {
            for x in span.destination.clamped(to: range) { spanIndex[x - base] = Int32(index) }
            let s0 = Double(span.segment.start), addressing = span.addressing
            guard let drawn = span.drawn else { continue }
            /// The taps of pixel `x` at `offset` (`AxisSpan.offset(at:)`).
            @inline(__always) func put(_ x: Int, _ offset: Double) {
                let u = s0 + offset
                let at = x - base
                visible[at] = true
                switch filter {
                case .nearest:
                    let i = span.address(Int(floorExact(u)), addressing)
                    first[at] = Int32(i)
                    second[at] = Int32(i)
                case .linear:
                    let t = u - 0.5
                    let floor = floorExact(t)
                    // Rounded half away from zero, as `rounded()` does, without its libm call: the
                    // product is in 0...65,536, so truncating and comparing the exact remainder is the same.
                    let scaled = (t - floor) * Double(AxisTaps.one)
                    var w = UInt32(scaled)
                    if scaled - Double(w) >= 0.5 { w += 1 }
                    var i = Int(floor)
                    if w >= AxisTaps.one { // f rounded up to a whole texel
                        i += 1
                        w = 0
                    }
                    first[at] = Int32(span.address(i, addressing))
                    second[at] = w == 0 ? first[at] : Int32(span.address(i + 1, addressing))
                    weight[at] = w
                }
            }
            // `offset(at:)`'s cases taken once a span, not a pixel, each with its expression as written there
            // (the same operations in the same order: the same doubles): a tall stretch's taps were a third
            // of its time.
            let pixels = drawn.clamped(to: range)
            switch span.mapping {
            case .clamped(let origin, let num, let den):
                for x in pixels { put(x, (Double(x) + 0.5 - origin) * num / den) }
            case .wrapped(let origin, let num, let den):
                let length = Double(span.segment.length)
                for x in pixels { put(x, positiveRemainder((Double(x) + 0.5 - origin) * num / den, length)) }
            case .spaced:
                for x in pixels {
                    if let offset = span.offset(at: x) { put(x, offset) }
                }
            }
        }
    }
}
