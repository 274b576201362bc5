/// One drawable cell: an x span crossed with a y span.
public struct CellPlan: Sendable, Equatable {
    public var x: AxisSpan
    public var y: AxisSpan
    /// Source pixels of this cell.
    public var sourceRect: (x: Range<Int>, y: Range<Int>) { (x.segment.start..<x.segment.end, y.segment.start..<y.segment.end) }

    public static func == (a: CellPlan, b: CellPlan) -> Bool { a.x == b.x && a.y == b.y }
}

/// Everything a backend needs to draw one output, computed once by `Layout`
/// (in the spirit of Skia's SkLatticeIter). Backends only sample.
public struct RenderPlan: Sendable, Equatable {
    public var size: PixelSize
    /// Source pixels per output pixel ratio `k = s_out / s_src`.
    public var k: Double
    public var filter: Filter
    public var xSpans: [AxisSpan]
    public var ySpans: [AxisSpan]
    /// The cells to draw: non-empty, and not the centre when fill is off.
    /// Pixels outside every cell stay transparent.
    public var cells: [CellPlan]

    public init(lattice: Lattice, size: PixelSize, k: Double,
                modes: PerAxis<ResizeMode>, filter: Filter, fillCenter: Bool) throws {
        guard k.isFinite, k > 0 else { throw GlsliceError(.usage, "scale ratio must be positive") }
        self.size = size
        self.k = k
        self.filter = filter
        xSpans = try Layout.axis(lattice.x, destination: size.width, k: k, mode: modes.x, axisName: "x")
        ySpans = try Layout.axis(lattice.y, destination: size.height, k: k, mode: modes.y, axisName: "y")
        var cells: [CellPlan] = []
        for y in ySpans where !y.destination.isEmpty {
            for x in xSpans where !x.destination.isEmpty {
                if !fillCenter && x.segment.scalable && y.segment.scalable { continue }
                cells.append(CellPlan(x: x, y: y))
            }
        }
        self.cells = cells
    }

    /// True when every output pixel belongs to a cell and no `space` gap exists,
    /// so an opaque source gives an opaque output.
    public var coversEveryPixel: Bool {
        func full(_ spans: [AxisSpan]) -> Bool {
            spans.allSatisfy { span in span.pieces.reduce(0) { $0 + $1.destination.count } == span.destination.count }
        }
        let cellArea = cells.reduce(0) { $0 + $1.x.destination.count * $1.y.destination.count }
        return cellArea == size.pixelCount && full(xSpans) && full(ySpans)
    }
}
