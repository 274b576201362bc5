import Foundation

/// The reference backend: SPEC §3 evaluated on the CPU from a `RenderPlan`.
///
/// Work is row by row so an encoder can take rows as they are produced; the
/// per-axis taps are built once per plan by `Prepared`.
public struct CPURenderer: Sendable {
    public init() {}

    /// Renders the whole output into memory.
    public func render(_ plan: RenderPlan, source: PremultipliedImage) -> PremultipliedImage {
        let prepared = Prepared(plan: plan, source: source)
        var pixels = [UInt8](repeating: 0, count: plan.size.pixelCount * 4)
        pixels.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress {
                prepared.renderRows(0..<plan.size.height, into: base.assumingMemoryBound(to: UInt8.self))
            }
        }
        return PremultipliedImage(RGBAImage(width: plan.size.width, height: plan.size.height, pixels: pixels))
    }

    /// A plan with its taps computed, ready to render any band of rows.
    public final class Prepared: @unchecked Sendable {
        let plan: RenderPlan
        let source: PremultipliedImage
        let columns: AxisTaps
        let rows: AxisTaps
        /// Per x span: its copy runs, or nil when some column blends.
        let spanRuns: [[CopyRun]?]
        /// Per (y span, x span): whether that cell is drawn.
        let drawn: [[Bool]]

        public init(plan: RenderPlan, source: PremultipliedImage) {
            self.plan = plan
            self.source = source
            columns = AxisTaps(spans: plan.xSpans, length: plan.size.width, filter: plan.filter)
            rows = AxisTaps(spans: plan.ySpans, length: plan.size.height, filter: plan.filter)
            spanRuns = plan.xSpans.map { [columns] in columns.copyRuns(in: $0.destination) }
            drawn = plan.ySpans.map { y in
                plan.xSpans.map { x in plan.cells.contains { $0.x == x && $0.y == y } }
            }
        }

        /// Renders output rows `band` into `output`, whose first byte is row
        /// `band.lowerBound`, rows packed at `width × 4` bytes. Pixels outside
        /// every cell are written transparent.
        public func renderRows(_ band: Range<Int>, into output: UnsafeMutablePointer<UInt8>) {
            let width = plan.size.width
            let stride = width * 4
            output.initialize(repeating: 0, count: band.count * stride)
            source.rgba.pixels.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                let texels = base.assumingMemoryBound(to: UInt32.self)
                let sourceWidth = source.width
                let out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt32.self)
                for y in band {
                    guard rows.visible[y] else { continue }
                    let ySpan = Int(rows.spanIndex[y])
                    let row0 = texels + Int(rows.first[y]) * sourceWidth
                    let row1 = texels + Int(rows.second[y]) * sourceWidth
                    let wy = rows.weight[y]
                    let line = out + (y - band.lowerBound) * width
                    for (xIndex, span) in plan.xSpans.enumerated() where drawn[ySpan][xIndex] {
                        if wy == 0, let runs = spanRuns[xIndex] {
                            for run in runs {
                                (line + run.destination).update(from: row0 + run.source, count: run.count)
                            }
                        } else {
                            drawSpan(span.destination, line: line, row0: row0, row1: row1, wy: wy)
                        }
                    }
                }
            }
        }

        @inline(__always)
        private func drawSpan(_ range: Range<Int>, line: UnsafeMutablePointer<UInt32>,
                              row0: UnsafePointer<UInt32>, row1: UnsafePointer<UInt32>, wy: UInt32) {
            columns.first.withUnsafeBufferPointer { first in
            columns.second.withUnsafeBufferPointer { second in
            columns.weight.withUnsafeBufferPointer { weight in
            columns.visible.withUnsafeBufferPointer { visible in
                if wy == 0 {
                    for x in range where visible[x] {
                        let wx = weight[x]
                        let a = row0[Int(first[x])]
                        line[x] = wx == 0 ? a : lerp(a, row0[Int(second[x])], wx)
                    }
                } else {
                    for x in range where visible[x] {
                        let i0 = Int(first[x]), i1 = Int(second[x])
                        line[x] = bilerp(row0[i0], row0[i1], row1[i0], row1[i1], weight[x], wy)
                    }
                }
            }}}}
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

/// Bilinear blend of a 2×2 texel block per channel, rounded once at the end.
@inline(__always)
func bilerp(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ wx: UInt32, _ wy: UInt32) -> UInt32 {
    let x1 = UInt64(wx), x0 = UInt64(AxisTaps.one) - x1
    let y1 = UInt64(wy), y0 = UInt64(AxisTaps.one) - y1
    var out: UInt32 = 0
    var shift: UInt32 = 0
    while shift < 32 {
        let top = UInt64((a >> shift) & 0xff) * x0 + UInt64((b >> shift) & 0xff) * x1
        let bottom = UInt64((c >> shift) & 0xff) * x0 + UInt64((d >> shift) & 0xff) * x1
        let v = (top * y0 + bottom * y1 + (1 << 31)) >> (2 * AxisTaps.shift)
        out |= UInt32(truncatingIfNeeded: v) << shift
        shift += 8
    }
    return out
}
