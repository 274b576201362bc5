import Foundation

/// The reference backend: docs/RENDERING.md §3 evaluated on the CPU from a `RenderPlan`.
///
/// Work is row by row so an encoder can take rows as they are produced; the
/// per-axis taps are built once per plan by `PlanWithTaps`.
public struct CPURenderer: Sendable {
    public init() {}

    /// Renders the whole output into memory.
    public func render(_ plan: RenderPlan, source: PremultipliedImage) -> PremultipliedImage {
        let prepared = PlanWithTaps(plan: plan, source: source)
        var pixels = [UInt8](repeating: 0, count: plan.size.pixelCount * 4)
        pixels.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress {
                prepared.renderRows(0..<plan.size.height, into: base.assumingMemoryBound(to: UInt8.self))
            }
        }
        return PremultipliedImage(RGBAImage(width: plan.size.width, height: plan.size.height, pixels: pixels))
    }

    /// A plan with its taps computed, ready to render any band of rows.
    public final class PlanWithTaps: Sendable {
        let plan: RenderPlan
        let source: PremultipliedImage
        let columns: AxisTaps
        let rows: AxisTaps
        /// Per x span: its copy runs, or nil when some column blends.
        let spanRuns: [[CopyRun]?]
        /// Per column, the end of its run of equal taps (`AxisTaps.runEnds`).
        let columnRunEnds: [Int32]
        /// Per (y span, x span): whether that cell is drawn.
        let drawn: [[Bool]]

        public init(plan: RenderPlan, source: PremultipliedImage) {
            self.plan = plan
            self.source = source
            columns = AxisTaps(spans: plan.xSpans, length: plan.size.width, filter: plan.filter)
            rows = AxisTaps(spans: plan.ySpans, length: plan.size.height, filter: plan.filter)
            spanRuns = plan.xSpans.map { [columns] in columns.copyRuns(in: $0.destination) }
            columnRunEnds = columns.runEnds()
            drawn = plan.ySpans.map { y in
                plan.xSpans.map { x in plan.cells.contains { $0.x == x && $0.y == y } }
            }
        }

        /// Renders output rows `band` into `output`, whose first byte is row
        /// `band.lowerBound`, rows packed at `width × 4` bytes. Pixels outside
        /// every cell are written transparent.
        ///
        /// A row whose vertical taps equal an earlier row's in the band is a copy
        /// of it (stretched 1-px centres, tiled periods). A row that blends two
        /// source rows blends them once, across the source width, then samples
        /// that blend with two horizontal taps: exactly the bilinear sum, with
        /// half the work per output pixel.
        public func renderRows(_ band: Range<Int>, into output: UnsafeMutablePointer<UInt8>) {
            let width = plan.size.width
            output.initialize(repeating: 0, count: band.count * width * 4)
            let sourceWidth = source.width
            var blended = [UInt32](repeating: 0, count: sourceWidth * 4)
            var done: [RowKey: Int] = [:]
            source.rgba.pixels.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                let texels = base.assumingMemoryBound(to: UInt32.self)
                let out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt32.self)
                blended.withUnsafeMutableBufferPointer { blendBuffer in
                    guard let blend = blendBuffer.baseAddress else { return }
                    for y in band {
                        guard rows.visible[y] else { continue }
                        let line = out + (y - band.lowerBound) * width
                        let key = RowKey(span: rows.spanIndex[y], first: rows.first[y], second: rows.second[y],
                                         weight: rows.weight[y])
                        if let earlier = done[key] {
                            line.update(from: out + (earlier - band.lowerBound) * width, count: width)
                            continue
                        }
                        done[key] = y
                        let ySpan = Int(key.span)
                        let row0 = texels + Int(key.first) * sourceWidth
                        if key.weight == 0 {
                            for (xIndex, span) in plan.xSpans.enumerated() where drawn[ySpan][xIndex] {
                                if let runs = spanRuns[xIndex] {
                                    for run in runs {
                                        (line + run.destination).update(from: row0 + run.source, count: run.count)
                                    }
                                } else {
                                    drawSpan(span.destination, line: line, row: row0)
                                }
                            }
                        } else {
                            blendRows(row0, texels + Int(key.second) * sourceWidth, weight: key.weight,
                                      count: sourceWidth, into: blend)
                            for (xIndex, span) in plan.xSpans.enumerated() where drawn[ySpan][xIndex] {
                                drawSpan(span.destination, line: line, blended: blend)
                            }
                        }
                    }
                }
            }
        }

        struct RowKey: Hashable {
            var span: Int32
            var first: Int32
            var second: Int32
            var weight: UInt32
        }

        /// Writes `pixel(x)` for each visible run of equal taps in `range`, once per run.
        @inline(__always)
        private func fillRuns(_ range: Range<Int>, line: UnsafeMutablePointer<UInt32>, _ pixel: (Int) -> UInt32) {
            columns.visible.withUnsafeBufferPointer { visible in
            columnRunEnds.withUnsafeBufferPointer { runEnd in
                var x = range.lowerBound
                while x < range.upperBound {
                    let end = min(Int(runEnd[x]), range.upperBound)
                    if visible[x] {
                        let value = pixel(x)
                        if end - x == 1 { line[x] = value } else { (line + x).update(repeating: value, count: end - x) }
                    }
                    x = end
                }
            }}
        }

        /// Two horizontal taps from one source row.
        @inline(__always)
        private func drawSpan(_ range: Range<Int>, line: UnsafeMutablePointer<UInt32>, row: UnsafePointer<UInt32>) {
            columns.first.withUnsafeBufferPointer { first in
            columns.second.withUnsafeBufferPointer { second in
            columns.weight.withUnsafeBufferPointer { weight in
                fillRuns(range, line: line) { x in
                    let wx = weight[x]
                    let a = row[Int(first[x])]
                    return wx == 0 ? a : lerp(a, row[Int(second[x])], wx)
                }
            }}}
        }

        /// Two horizontal taps from a vertical blend (`blendRows`), rounded once.
        @inline(__always)
        private func drawSpan(_ range: Range<Int>, line: UnsafeMutablePointer<UInt32>, blended: UnsafePointer<UInt32>) {
            columns.first.withUnsafeBufferPointer { first in
            columns.second.withUnsafeBufferPointer { second in
            columns.weight.withUnsafeBufferPointer { weight in
                fillRuns(range, line: line) { x in
                    let a = blended + Int(first[x]) * 4
                    let wx = weight[x]
                    if wx == 0 {
                        return (a[0] &+ 0x8000) >> 16 | ((a[1] &+ 0x8000) >> 16) << 8
                            | ((a[2] &+ 0x8000) >> 16) << 16 | ((a[3] &+ 0x8000) >> 16) << 24
                    }
                    let b = blended + Int(second[x]) * 4
                    let w1 = UInt64(wx), w0 = UInt64(AxisTaps.one) - w1
                    var pixel: UInt32 = 0
                    for c in 0..<4 {
                        let v = (UInt64(a[c]) * w0 + UInt64(b[c]) * w1 + (1 << 31)) >> 32
                        pixel |= UInt32(truncatingIfNeeded: v) << (8 * UInt32(c))
                    }
                    return pixel
                }
            }}}
        }
    }
}

/// `a·(1−w) + b·w` per channel and texel, unrounded (16 fractional bits).
@inline(__always)
func blendRows(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, weight: UInt32, count: Int,
               into out: UnsafeMutablePointer<UInt32>) {
    let w1 = weight, w0 = AxisTaps.one - weight
    for i in 0..<count {
        let p = a[i], q = b[i]
        for c in 0..<4 {
            let shift = UInt32(8 * c)
            out[i * 4 + c] = ((p >> shift) & 0xff) * w0 + ((q >> shift) & 0xff) * w1
        }
    }
}

/// `a·(1−w) + b·w` per channel, rounded to nearest; `w` in 1/65536.
@inline(__always)
func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let wb = UInt64(w), wa = UInt64(AxisTaps.one) - wb
    var out: UInt32 = 0
    var shift: UInt32 = 0
    while shift < 32 {
        let v = (UInt64((a >> shift) & 0xff) * wa + UInt64((b >> shift) & 0xff) * wb + (1 << 15)) >> AxisTaps.shift
        out |= UInt32(truncatingIfNeeded: v) << shift
        shift += 8
    }
    return out
}
