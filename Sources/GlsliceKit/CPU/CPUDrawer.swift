import Foundation

/// The CPU drawer, the reference: docs/RENDERING.md §3 evaluated on the CPU from a `Plan`,
/// strip by strip so an encoder can take rows as they are drawn. Only `Backend` makes one.
///
/// It holds a plan ready to draw any strip of rows: the columns' taps in windows
/// of at most `window` pixels (kept when the output is at most
/// `keptWidth` wide, else made per strip), the rows' taps per strip. Memory
/// is bounded by the window and the strip, never by the output's length.
final class CPUDrawer: Sendable {
    let plan: Plan
    let source: PremultipliedImage
    /// `plan.draws(x:y:)` for every span pair, flat (`y × xSpans.count + x`).
    let drawn: [Bool]
    /// The plan's `CellFill`s at the same indices as `drawn`; empty when no cell has one.
    let fills: [CellFill?]
    /// Per y span: the source columns its rows blend, those of its drawn cells
    /// that are sampled (merged); none when every drawn cell is filled.
    let blendColumns: [[Range<Int>]]
    /// Per x span: `space` gaps, which a fill must leave transparent.
    let spanHasGaps: [Bool]
    /// Every column window, when the output is narrow enough to keep them.
    let keptWindows: [ColumnWindow]?
    /// Every row's taps, when the job's were worked out with its repeat map (`PlanTaps`).
    let keptRows: AxisTaps?

    static let window = 1 << 16
    static let keptWidth = 1 << 20

    /// The columns `taps.range`: their taps, runs and the x spans that reach them.
    struct ColumnWindow: Sendable {
        let taps: AxisTaps
        /// Per column (window index), the end of its run of equal taps (`AxisTaps.runEnds`).
        let runEnds: [Int32]
        /// Indices of the x spans with pixels in this window.
        let spans: Range<Int>
        /// Per span of `spans`: its copy runs in this window, or nil when some column blends.
        let spanRuns: [[CopyRun]?]

        /// The three tap arrays, without bounds checks, for the pixel loops.
        @inline(__always)
        func withTaps<R>(_ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<UInt32>) -> R) -> R {
            taps.first.withUnsafeBufferPointer { first in
                taps.second.withUnsafeBufferPointer { second in
                    taps.weight.withUnsafeBufferPointer { weight in body(first, second, weight) }
                }
            }
        }

        init(plan: Plan, columns: Range<Int>, taps: AxisTaps? = nil) { // `taps`: the columns' (`PlanTaps`), if made
            let taps = taps ?? AxisTaps(spans: plan.xSpans, range: columns, filter: plan.filter)
            self.taps = taps
            runEnds = taps.runEnds()
            let reaching = plan.xSpans.indices.filter { !plan.xSpans[$0].destination.clamped(to: columns).isEmpty }
            spans = (reaching.first ?? 0)..<((reaching.last ?? -1) + 1)
            spanRuns = spans.map { [taps] in taps.copyRuns(in: plan.xSpans[$0].destination.clamped(to: columns)) }
        }
    }

    /// - Parameter taps: the plan's whole-axis taps, where the job's repeat map was made from them.
    init(plan: Plan, source: PremultipliedImage, taps: PlanTaps? = nil) {
        self.plan = plan
        self.source = source
        let drawn = plan.ySpans.indices.flatMap { y in plan.xSpans.indices.map { x in plan.draws(x: x, y: y) } }
        self.drawn = drawn
        var fills: [CellFill?] = []
        if plan.cells.contains(where: { $0.fill != nil }) {
            // Cells are made row by row, in span order, from the drawn pairs only.
            fills = [CellFill?](repeating: nil, count: drawn.count)
            var index = 0
            for (flat, isDrawn) in drawn.enumerated() where isDrawn {
                fills[flat] = plan.cells[index].fill
                index += 1
            }
        }
        self.fills = fills
        // Every `space` span, whether or not a tile fits: one where none does has no
        // pieces at all, and a fill must leave all of it transparent (the taps say so).
        spanHasGaps = plan.xSpans.map { span in
            if case .spaced = span.mapping { return true }
            return false
        }
        blendColumns = plan.ySpans.indices.map { y in
            var ranges: [Range<Int>] = []
            for x in plan.xSpans.indices where drawn[y * plan.xSpans.count + x] && (fills.isEmpty || fills[y * plan.xSpans.count + x] == nil) {
                let segment = plan.xSpans[x].segment
                if let last = ranges.last, last.upperBound == segment.start {
                    ranges[ranges.count - 1] = last.lowerBound..<segment.end
                } else {
                    ranges.append(segment.start..<segment.end)
                }
            }
            return ranges
        }
        keptWindows = plan.size.width <= CPUDrawer.keptWidth
            ? CPUDrawer.windows(of: plan.size.width).map { columns in
                ColumnWindow(plan: plan, columns: columns, taps: taps?.columns.flatMap { $0.range == columns ? $0 : nil })
            } : nil
        keptRows = taps?.rows
    }

    static func windows(of width: Int) -> [Range<Int>] {
        stride(from: 0, to: width, by: window).map { $0..<min($0 + window, width) }
    }

    /// Draws output rows `strip` into `output`, whose first byte is row
    /// `strip.lowerBound`, rows packed at `width × 4` bytes. Pixels outside
    /// every cell are written transparent.
    ///
    /// A row whose vertical taps equal an earlier row's in the strip is a copy
    /// of it (stretched 1-px centres, tiled periods). A row that blends two
    /// source rows blends them once, across the source width, then samples
    /// that blend with two horizontal taps: exactly the bilinear sum, with
    /// half the work per output pixel.
    func drawRows(_ strip: Range<Int>, into output: UnsafeMutablePointer<UInt8>) {
        output.initialize(repeating: 0, count: strip.count * plan.size.width * 4)
        let rows = keptRows ?? AxisTaps(spans: plan.ySpans, range: strip, filter: plan.filter)
        for (index, columns) in CPUDrawer.windows(of: plan.size.width).enumerated() {
            let window = keptWindows?[index] ?? ColumnWindow(plan: plan, columns: columns)
            draw(strip, rows: rows, window: window, into: output)
        }
    }

    private func draw(_ strip: Range<Int>, rows: AxisTaps, window: ColumnWindow, into output: UnsafeMutablePointer<UInt8>) {
        let width = plan.size.width, columns = window.taps.range
        let sourceWidth = source.width, xCount = plan.xSpans.count
        var blended = [UInt32](repeating: 0, count: sourceWidth * 4)
        var done = RowTable()
        source.rgba.pixels.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            let texels = base.assumingMemoryBound(to: UInt32.self)
            let out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt32.self)
            blended.withUnsafeMutableBufferPointer { blendBuffer in
                guard let blend = blendBuffer.baseAddress else { return }
                for y in strip {
                    let at = y - strip.lowerBound, tap = y - rows.range.lowerBound
                    guard rows.visible[tap] else { continue }
                    let line = out + at * width
                    let key = RowKey(span: rows.spanIndex[tap], first: rows.first[tap], second: rows.second[tap],
                                     weight: rows.weight[tap])
                    if let earlier = done.firstRow(with: key, else: y) {
                        (line + columns.lowerBound).update(from: out + (earlier - strip.lowerBound) * width + columns.lowerBound,
                                                          count: columns.count)
                        continue
                    }
                    let ySpan = Int(key.span)
                    let row0 = texels + Int(key.first) * sourceWidth
                    if key.weight != 0 {
                        // Only the columns the sampled cells read: a filled cell's never are.
                        let row1 = texels + Int(key.second) * sourceWidth
                        for range in blendColumns[ySpan] {
                            blendRows(row0 + range.lowerBound, row1 + range.lowerBound, weight: key.weight,
                                      count: range.count, into: blend + range.lowerBound * 4)
                        }
                    }
                    for xIndex in window.spans where drawn[ySpan * xCount + xIndex] {
                        let pixels = plan.xSpans[xIndex].destination.clamped(to: columns)
                        if !fills.isEmpty, let fill = fills[ySpan * xCount + xIndex] {
                            // The output starts transparent; a space gap stays so.
                            if case .colour(let value) = fill {
                                if spanHasGaps[xIndex] {
                                    fillRuns(pixels, window: window, line: line) { _ in value }
                                } else {
                                    (line + pixels.lowerBound).update(repeating: value, count: pixels.count)
                                }
                            }
                        } else if key.weight != 0 {
                            drawSpan(pixels, window: window, line: line, blended: blend)
                        } else if let runs = window.spanRuns[xIndex - window.spans.lowerBound] {
                            for run in runs {
                                (line + run.destination).update(from: row0 + run.source, count: run.count)
                            }
                        } else {
                            drawSpan(pixels, window: window, line: line, row: row0)
                        }
                    }
                }
            }
        }
    }

    struct RowKey: Equatable {
        var span: Int32
        var first: Int32
        var second: Int32
        var weight: UInt32
    }

    /// The first row drawn with each `RowKey` in a strip: an open-addressed table
    /// with a multiplicative hash (a `Dictionary`'s seeded `Hasher` was a third of a
    /// 1 × 20,000,000 gradient's drawing, a lookup a row).
    struct RowTable {
        private var keys: [RowKey]
        private var rows: [Int]
        private var used = 0

        init() {
            keys = [RowKey](repeating: RowKey(span: -1, first: 0, second: 0, weight: 0), count: 256)
            rows = [Int](repeating: -1, count: 256)
        }

        private func slot(_ key: RowKey) -> Int {
            let mixed = (UInt64(UInt32(bitPattern: key.span)) << 32 | UInt64(UInt32(bitPattern: key.first)))
                &* 0x9E37_79B9_7F4A_7C15 ^ (UInt64(UInt32(bitPattern: key.second)) << 32 | UInt64(key.weight)) &* 0xFF51_AFD7_ED55_8CCD
            var h = Int(truncatingIfNeeded: mixed >> 32) & (keys.count - 1)
            while rows[h] >= 0, keys[h] != key { h = (h + 1) & (keys.count - 1) }
            return h
        }

        /// The row first drawn with `key`, or nil after noting `row` as it.
        mutating func firstRow(with key: RowKey, else row: Int) -> Int? {
            let h = slot(key)
            if rows[h] >= 0 { return rows[h] }
            keys[h] = key
            rows[h] = row
            used += 1
            if 2 * used > keys.count { grow() }
            return nil
        }

        private mutating func grow() {
            let old = zip(keys, rows).filter { $0.1 >= 0 }
            keys = [RowKey](repeating: keys[0], count: 2 * keys.count)
            rows = [Int](repeating: -1, count: keys.count)
            for (key, row) in old {
                let h = slot(key)
                keys[h] = key
                rows[h] = row
            }
        }
    }

    /// Writes `pixel(at)` (`at` a window index) for each visible run of
    /// equal taps in `pixels`, once per run.
    @inline(__always)
    private func fillRuns(_ pixels: Range<Int>, window: ColumnWindow, line: UnsafeMutablePointer<UInt32>,
                          _ pixel: (Int) -> UInt32) {
        let base = window.taps.range.lowerBound
        window.taps.visible.withUnsafeBufferPointer { visible in
        window.runEnds.withUnsafeBufferPointer { runEnd in
            var x = pixels.lowerBound
            while x < pixels.upperBound {
                let at = x - base
                let end = min(Int(runEnd[at]) + base, pixels.upperBound)
                if visible[at] {
                    let value = pixel(at)
                    if end - x == 1 { line[x] = value } else { (line + x).update(repeating: value, count: end - x) }
                }
                x = end
            }
        }}
    }

    /// Two horizontal taps from one source row.
    @inline(__always)
    private func drawSpan(_ pixels: Range<Int>, window: ColumnWindow, line: UnsafeMutablePointer<UInt32>,
                          row: UnsafePointer<UInt32>) {
        window.withTaps { first, second, weight in
            fillRuns(pixels, window: window, line: line) { at in
                let wx = weight[at]
                let a = row[Int(first[at])]
                return wx == 0 ? a : lerp(a, row[Int(second[at])], wx)
            }
        }
    }

    /// Two horizontal taps from a vertical blend (`blendRows`), rounded once.
    @inline(__always)
    private func drawSpan(_ pixels: Range<Int>, window: ColumnWindow, line: UnsafeMutablePointer<UInt32>,
                          blended: UnsafePointer<UInt32>) {
        window.withTaps { first, second, weight in
            fillRuns(pixels, window: window, line: line) { at in
                let a = blended + Int(first[at]) &* 4
                let wx = weight[at]
                if wx == 0 {
                    return (a[0] &+ 0x8000) >> 16 | ((a[1] &+ 0x8000) >> 16) << 8
                        | ((a[2] &+ 0x8000) >> 16) << 16 | ((a[3] &+ 0x8000) >> 16) << 24
                }
                let b = blended + Int(second[at]) &* 4
                // At most 255 × 2¹⁶ per channel, times 2¹⁶: far inside 64 bits, so wrapping is exact.
                let w1 = UInt64(wx), w0 = UInt64(AxisTaps.one) &- w1
                @inline(__always) func channel(_ c: Int) -> UInt32 {
                    let v = (UInt64(a[c]) &* w0 &+ UInt64(b[c]) &* w1 &+ (1 << 31)) >> 32
                    return UInt32(truncatingIfNeeded: v) << UInt32(8 * c)
                }
                return channel(0) | channel(1) | channel(2) | channel(3)
            }
        }
    }
}
