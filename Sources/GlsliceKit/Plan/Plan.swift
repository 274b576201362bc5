/// One drawable cell: an x span crossed with a y span.
package struct CellPlan: Sendable, Equatable {
    package var x: AxisSpan
    package var y: AxisSpan
    /// Set when every source pixel of the cell is one colour: backends fill it without sampling.
    package var fill: CellFill?
    /// Source pixels of this cell.
    var sourceRect: (x: Range<Int>, y: Range<Int>) { (x.segment.start..<x.segment.end, y.segment.start..<y.segment.end) }

    package static func == (a: CellPlan, b: CellPlan) -> Bool { a.x == b.x && a.y == b.y && a.fill == b.fill }
}

/// Everything a backend needs to draw one output, computed once by `Layout`
/// (in the spirit of Skia's SkLatticeIter). Backends only sample.
package struct Plan: Sendable, Equatable {
    package var size: PixelSize
    /// Source pixels per output pixel ratio `k = s_out / s_src`.
    var k: Double
    package var filter: Filter
    var xSpans: [AxisSpan]
    var ySpans: [AxisSpan]
    /// The cells to draw: non-empty, and not the centre when fill is off.
    /// Pixels outside every cell stay transparent.
    package var cells: [CellPlan]
    package var fillCenter: Bool

    /// Whether the cell of x span `x` and y span `y` (indices) is drawn: the
    /// rule `cells` is built from, asked by index (a lattice has up to
    /// source-size spans per axis; searching `cells` per pair was quartic).
    @inline(__always)
    func draws(x: Int, y: Int) -> Bool {
        !xSpans[x].destination.isEmpty && !ySpans[y].destination.isEmpty
            && (fillCenter || !(xSpans[x].segment.scalable && ySpans[y].segment.scalable))
    }

    init(lattice: Lattice, size: PixelSize, k: Double,
                modes: PerAxis<ResizeMode>, filter: Filter, fillCenter: Bool, small: SmallTarget = .proportional,
                caps: PerAxis<CapWidths>? = nil) throws {
        guard k.isFinite, k > 0 else { throw UsageErrors.scaleRatioNotPositive() }
        self.size = size
        self.k = k
        self.filter = filter
        xSpans = try Layout.axis(lattice.x, destination: size.width, k: k, mode: modes.x, small: small, caps: caps?.x, axisName: "x")
        ySpans = try Layout.axis(lattice.y, destination: size.height, k: k, mode: modes.y, small: small, caps: caps?.y, axisName: "y")
        self.fillCenter = fillCenter
        self.cells = []
        for y in ySpans.indices {
            for x in xSpans.indices where draws(x: x, y: y) { cells.append(CellPlan(x: xSpans[x], y: ySpans[y])) }
        }
    }

    /// Marks each cell whose source pixels in `image` are all one colour
    /// (`CellFill`), so backends fill it without sampling, for the same bytes.
    package mutating func markFills(from image: PremultipliedImage) {
        for index in cells.indices { cells[index].fill = CellFill.of(cells[index].sourceRect, in: image) }
    }

    /// True when every output pixel belongs to a cell and no `space` gap exists,
    /// so an opaque source gives an opaque output.
    var coversEveryPixel: Bool {
        func full(_ spans: [AxisSpan]) -> Bool {
            spans.allSatisfy { span in span.drawnCount == span.destination.count }
        }
        let cellArea = cells.reduce(0) { $0 + $1.x.destination.count * $1.y.destination.count }
        return cellArea == size.pixelCount && full(xSpans) && full(ySpans)
    }
}
