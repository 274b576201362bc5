/// Per-column (or per-row) sampling decisions, precomputed once per axis so the
/// pixel loop does no division, no addressing and no allocation.
struct AxisTaps {
    /// Fixed-point weight scale: weights are in `0...one`.
    static let shift: UInt64 = 16
    static let one: UInt32 = 1 << 16

    /// First and second texel (absolute source indices, already addressed).
    var first: [Int32]
    var second: [Int32]
    /// Weight of `second`; 0 means `first` alone (an exact texel).
    var weight: [UInt32]
    /// False in `space` gaps: the pixel stays transparent.
    var visible: [Bool]
    /// Which span owns each destination pixel.
    var spanIndex: [Int32]

    init(spans: [AxisSpan], length: Int, filter: Filter) {
        first = [Int32](repeating: 0, count: length)
        second = first
        weight = [UInt32](repeating: 0, count: length)
        visible = [Bool](repeating: false, count: length)
        spanIndex = [Int32](repeating: -1, count: length)
        for (index, span) in spans.enumerated() {
            for x in span.destination { spanIndex[x] = Int32(index) }
            let s0 = Double(span.segment.start)
            for piece in span.pieces {
                for x in piece.destination {
                    let u = s0 + piece.offset(at: x, length: span.segment.length)
                    visible[x] = true
                    switch filter {
                    case .nearest:
                        let i = span.address(Int(u.rounded(.down)), piece.addressing)
                        first[x] = Int32(i)
                        second[x] = Int32(i)
                    case .linear:
                        let t = u - 0.5
                        let base = t.rounded(.down)
                        var w = UInt32(((t - base) * Double(AxisTaps.one)).rounded())
                        var i = Int(base)
                        if w >= AxisTaps.one { // f rounded up to a whole texel
                            i += 1
                            w = 0
                        }
                        first[x] = Int32(span.address(i, piece.addressing))
                        second[x] = w == 0 ? first[x] : Int32(span.address(i + 1, piece.addressing))
                        weight[x] = w
                    }
                }
            }
        }
    }
}

/// A run of destination pixels that copy consecutive source texels unchanged.
struct CopyRun {
    var destination: Int
    var source: Int
    var count: Int
}

extension AxisTaps {
    /// Per pixel, where the run of pixels with its taps ends (exclusive): a
    /// stretched 1-px centre is one run, computed once and filled.
    func runEnds() -> [Int32] {
        let length = first.count
        var ends = [Int32](repeating: Int32(length), count: length)
        for x in stride(from: length - 2, through: 0, by: -1) {
            let same = first[x] == first[x + 1] && second[x] == second[x + 1] && weight[x] == weight[x + 1]
                && visible[x] == visible[x + 1] && spanIndex[x] == spanIndex[x + 1]
            ends[x] = same ? ends[x + 1] : Int32(x + 1)
        }
        return ends
    }

    /// Maximal runs of exact, consecutive texels inside `range`. When a span is
    /// made only of these, a row that needs no vertical blend is a few memcpys.
    func copyRuns(in range: Range<Int>) -> [CopyRun]? {
        var runs: [CopyRun] = []
        for x in range {
            guard weight[x] == 0 else { return nil }
            guard visible[x] else { continue }
            let s = Int(first[x])
            if var last = runs.last, last.destination + last.count == x, last.source + last.count == s {
                last.count += 1
                runs[runs.count - 1] = last
            } else {
                runs.append(CopyRun(destination: x, source: s, count: 1))
            }
        }
        return runs
    }
}
