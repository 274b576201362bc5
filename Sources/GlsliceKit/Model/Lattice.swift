
/// The source split into segments per axis. Nine-slice is its 3×3 case;
/// Android nine-patches give any number of alternating segments.
package struct Lattice: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var x: [Segment]
    package var y: [Segment]

    /// Checks that each axis tiles `[0, size)` with non-empty segments in order.
    package init(width: Int, height: Int, x: [Segment], y: [Segment]) throws {
        for (segments, size, axis) in [(x, width, "x"), (y, height, "y")] {
            var position = 0
            for segment in segments {
                guard segment.start == position, segment.length > 0 else {
                    throw InputErrors.segmentsOutOfOrder(axis: axis)
                }
                position = segment.end
            }
            guard position == size else {
                throw InputErrors.segmentsShort(axis: axis, covered: position, of: size)
            }
        }
        self.width = width
        self.height = height
        self.x = x
        self.y = y
    }

    /// `[0,l) fixed, [l,W−r) scalable, [W−r,W) fixed`, zero-length segments dropped.
    /// `points`: the insets as a request gave them, in points at `sourceScale`, which a refusal
    /// names beside the pixels (a newcomer read "1998 px" for "999" at @2x).
    package init(width: Int, height: Int, insets: PixelInsets, points: (insets: Insets, sourceScale: Double)? = nil) throws {
        guard insets.left + insets.right <= width, insets.top + insets.bottom <= height else {
            throw InputErrors.insetsExceedImage("\(insets.top),\(insets.left),\(insets.bottom),\(insets.right)", width: width, height: height,
                                                points: points.flatMap { $0.sourceScale == 1 ? nil : $0 })
        }
        func threeSlice(_ low: Int, _ high: Int, _ size: Int) -> [Segment] {
            [Segment(0, low, scalable: false),
             Segment(low, size - high, scalable: true),
             Segment(size - high, size, scalable: false)].filter { $0.length > 0 }
        }
        try self.init(width: width, height: height,
                      x: threeSlice(insets.left, insets.right, width),
                      y: threeSlice(insets.top, insets.bottom, height))
    }

    /// Alternating fixed and scalable segments from the scalable runs of each
    /// axis (sorted, disjoint, inside the image): a `.9.png`'s markers and
    /// `--lattice` both end here. No runs means the whole axis scales, as Android draws it.
    package init(width: Int, height: Int, stretchX: [Range<Int>], stretchY: [Range<Int>]) throws {
        try self.init(width: width, height: height,
                      x: Self.segments(stretchX, width), y: Self.segments(stretchY, height))
    }

    /// The lattice a request's slicing gives a plain source: `runs` when given
    /// (insets must then be zero), else the three-slice of `insets`, both in points at `sourceScale`.
    package init(width: Int, height: Int, insets: Insets, runs: LatticeRuns?, sourceScale: Double) throws {
        if let runs {
            guard insets == .zero else {
                throw UsageErrors.latticeWithInsets()
            }
            self = try runs.lattice(width: width, height: height, sourceScale: sourceScale)
        } else {
            try self.init(width: width, height: height, insets: PixelInsets(insets, sourceScale: sourceScale), points: (insets, sourceScale))
        }
    }

    /// aapt2 refuses a nine-patch with more regions (columns × rows) than this;
    /// every lattice is held to it (`checkRegions`).
    static let maxRegions = 127

    /// Cells: columns × rows, as a lattice draws them.
    var regions: Int { x.count * y.count }

    /// Refuses a lattice with more regions than a `.9.png` may have
    /// (`maxRegions`, aapt2's): a plan, and the GPU's vertices, grow with them.
    package func checkRegions(option: RequestOption? = nil) throws {
        guard regions <= Lattice.maxRegions else {
            throw InputErrors.tooManyRegions(columns: x.count, rows: y.count, maximum: Lattice.maxRegions, option: option)
        }
    }

    static func segments(_ stretch: [Range<Int>], _ length: Int) -> [Segment] {
        guard !stretch.isEmpty else { return [Segment(0, length, scalable: true)] }
        var segments: [Segment] = []
        var position = 0
        for run in stretch {
            if run.lowerBound > position { segments.append(Segment(position, run.lowerBound, scalable: false)) }
            segments.append(Segment(run.lowerBound, run.upperBound, scalable: true))
            position = run.upperBound
        }
        if position < length { segments.append(Segment(position, length, scalable: false)) }
        return segments
    }
}
