/// The plan's repeats (issue 42), decided on taps before a pixel is drawn.
///
/// Two output pixels are equal when they read the same texels with the same
/// weight in cells drawn alike, so equality is decided on taps: a row's
/// vertical taps (and whether its y span leaves the centre out), a column's
/// horizontal taps within one x span.
/// Source rows (columns) with the same bytes count as the same texel, so
/// identical cap rows of the source repeat too.
extension RepeatMap {
    /// Spans wider than this get no period (memory a column would cost; the
    /// encoder's matcher still finds what repeats there).
    static let widestPeriodicSpan = 1 << 20

    init(plan: Plan, source: PremultipliedImage) {
        self.init(plan: plan, classes: LineClasses(source))
    }

    /// - Parameters:
    ///   - classes: the source's line classes, worked out once per source (`SourceCache`).
    ///   - taps: the plan's whole-axis taps, where worked out already (shared with the drawer).
    init(plan: Plan, classes: LineClasses, taps: PlanTaps? = nil) {
        let rowClass = classes.rows, columnClass = classes.columns
        // Rows: one key per visible row; an invisible row (a `space` gap) is all transparent. Which
        // y span a row is in matters only where it leaves the centre out (`fillCenter` off):
        // elsewhere every x span draws the same cells (a filled cell gives the bytes sampling does).
        let hollow = plan.ySpans.map { $0.segment.scalable && !plan.fillCenter }
        let ySpans = plan.ySpans, filter = plan.filter, wholeRows = taps?.rows
        // A tile's rows at a whole scale repeat exactly every period (`AxisSpan.exactPeriod`): their keys
        // are copied from a period up rather than worked out (a 1x20,000,000 tiled gradient's keys were
        // two thirds of its encoding).
        let periodic = ySpans.compactMap { span -> (rows: Range<Int>, period: Int)? in
            guard let drawn = span.drawn, let period = span.exactPeriod, period < drawn.count else { return nil }
            return (drawn, period)
        }
        let rowKeys: @Sendable (Range<Int>) -> [RowKey] = { rows in
            var keys: [RowKey] = []
            keys.reserveCapacity(rows.count)
            var y0 = rows.lowerBound
            rangeLoop: while y0 < rows.upperBound {
                var end = min(rows.upperBound, y0 + 4096)
                for span in periodic {
                    let copyFrom = max(rows.lowerBound, span.rows.lowerBound) + span.period
                    if span.rows.contains(y0), y0 >= copyFrom {
                        let stop = min(rows.upperBound, span.rows.upperBound)
                        for y in y0..<stop { keys.append(keys[y - span.period - rows.lowerBound]) }
                        y0 = stop
                        continue rangeLoop
                    }
                    if copyFrom > y0, copyFrom < span.rows.upperBound { end = min(end, copyFrom) }
                }
                let range = y0..<end
                let taps = wholeRows ?? AxisTaps(spans: ySpans, range: range, filter: filter)
                for i in range.lowerBound - taps.range.lowerBound..<range.upperBound - taps.range.lowerBound {
                    guard taps.visible[i] else {
                        keys.append(RowKey(high: 0, low: 0))
                        continue
                    }
                    let tap = Self.blend(rowClass[Int(taps.first[i])], rowClass[Int(taps.second[i])], weight: taps.weight[i])
                    keys.append(RowKey(high: tap.high, low: tap.weight << 2 | (hollow[Int(taps.spanIndex[i])] ? 2 : 0) | 1))
                }
                y0 = range.upperBound
            }
            return keys
        }
        // Columns: the smallest period of each x span's tap sequence (KMP's failure function).
        var periods: [(destination: Range<Int>, period: Int)] = []
        // One set of taps for the whole width where it is narrow enough (the same taps as each span's
        // own: spans do not overlap), rather than a set a span.
        let width = plan.xSpans.map(\.destination.upperBound).max() ?? 0
        let wholeWidth = taps?.columns
            ?? (width <= Self.widestPeriodicSpan ? AxisTaps(spans: plan.xSpans, range: 0..<width, filter: plan.filter) : nil)
        for span in plan.xSpans where !span.destination.isEmpty {
            guard span.destination.count <= Self.widestPeriodicSpan else {
                periods.append((span.destination, span.destination.count))
                continue
            }
            let taps = wholeWidth ?? AxisTaps(spans: plan.xSpans, range: span.destination, filter: plan.filter)
            let base = span.destination.lowerBound - taps.range.lowerBound
            let keys = (0..<span.destination.count).map { k -> RowKey in
                let i = base + k
                guard taps.visible[i] else { return RowKey(high: 0, low: 0) }
                let tap = Self.blend(columnClass[Int(taps.first[i])], columnClass[Int(taps.second[i])], weight: taps.weight[i])
                return RowKey(high: tap.high, low: tap.weight << 2 | 1)
            }
            var border = [Int](repeating: 0, count: keys.count)
            var k = 0
            for i in keys.indices.dropFirst() {
                while k > 0 && keys[i] != keys[k] { k = border[k - 1] }
                if keys[i] == keys[k] { k += 1 }
                border[i] = k
            }
            periods.append((span.destination, keys.count - (border.last ?? 0)))
        }
        self.init(rowKeys: rowKeys, columnPeriods: periods)
    }

    /// A line blended from the lines of classes `first` and `second`, `weight` of the second (`AxisTaps`),
    /// told the same way whichever comes first: both drawers blend `a·(1−w) + b·w` in whole numbers
    /// (`blendRows`, `lerp`), which is `b·(1−w′) + a·w′` for `w′ = 1 − w` exactly, so the two are equal
    /// pixels. A mirrored texture stretched by `linear` blends its lines both ways round either side of
    /// its middle (the bench manifest's `texture.png` at 3x, 2.7x zlib 6's bytes while those rows were
    /// told apart). A blend of two equal lines is that line (the weights add up to one): no weight.
    @inline(__always)
    static func blend(_ first: Int32, _ second: Int32, weight: UInt32) -> (high: UInt64, weight: UInt64) {
        if first == second || weight == 0 { return (UInt64(UInt32(bitPattern: first)) << 32 | UInt64(UInt32(bitPattern: first)), 0) }
        let (low, high, w) = first < second ? (first, second, weight) : (second, first, AxisTaps.one - weight)
        return (UInt64(UInt32(bitPattern: low)) << 32 | UInt64(UInt32(bitPattern: high)), UInt64(w))
    }
}
