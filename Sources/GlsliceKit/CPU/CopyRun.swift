/// A run of destination pixels that copy consecutive source texels unchanged.
struct CopyRun {
    var destination: Int
    var source: Int
    var count: Int
}

extension AxisTaps {
    /// Per pixel (window index), where the run of pixels with its taps ends
    /// (exclusive, window index): a stretched 1-px centre is one run, computed once and filled.
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

    /// Maximal runs of exact, consecutive texels inside `pixels` (absolute
    /// indices, within `range`). When a span is made only of these, a row that
    /// needs no vertical blend is a few memcpys.
    func copyRuns(in pixels: Range<Int>) -> [CopyRun]? {
        var runs: [CopyRun] = []
        for x in pixels {
            let at = x - range.lowerBound
            guard weight[at] == 0 else { return nil }
            guard visible[at] else { continue }
            let s = Int(first[at])
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
