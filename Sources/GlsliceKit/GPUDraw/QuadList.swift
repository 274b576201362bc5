import CEGL

/// Quads to draw into the framebuffer, one per (x part, y part) of each
/// drawn cell, and the taps texture they read: for each job drawn, a row of
/// its column taps placed at its framebuffer columns and a row of its row
/// taps placed at its framebuffer rows (the plan's `AxisTaps`, as texels
/// of first, second, weight, visible; texel indices within the cell).
struct QuadList {
    /// Consecutive quads that share a texture: one draw call.
    struct Run {
        var texture: GLuint
        var firstQuad: Int
        var quads: Int
    }
    var runs: [Run] = []
    var vertices: [Float] = []
    var quadCount = 0
    /// The taps texture's rows: where each starts (a framebuffer column or
    /// row) and its texels, four `UInt32`s a pixel.
    var tapRows: [(start: Int, texels: [UInt32])] = []
    /// The taps texture's width: the end of its longest row.
    var tapWidth = 0

    /// Adds the part of `job`'s output in `columns × rows`, placed with that
    /// rectangle's corner at framebuffer pixel `at`.
    mutating func append(_ job: GPUDrawer, columns: Range<Int>, rows: Range<Int>, at: (x: Int, y: Int)) {
        let plan = job.plan
        let xRow = Float(tapRows.count), yRow = Float(tapRows.count + 1)
        // The job's prepared taps where they cover the rectangle (`PlanTaps`), else worked out here.
        let xTaps = job.taps?.columns.flatMap { $0.covers(columns) ? $0 : nil } ?? AxisTaps(spans: plan.xSpans, range: columns, filter: plan.filter)
        let yTaps = job.taps?.rows.flatMap { $0.covers(rows) ? $0 : nil } ?? AxisTaps(spans: plan.ySpans, range: rows, filter: plan.filter)
        addTaps(xTaps, columns, spans: plan.xSpans, at: at.x)
        addTaps(yTaps, rows, spans: plan.ySpans, at: at.y)
        let offset = (Float(columns.lowerBound - at.x), Float(rows.lowerBound - at.y))
        for (texture, cell) in job.draws {
            // A one-colour cell's texture is its one texel (CellFill).
            let filled: Float = cell.fill != nil ? 1 : 0
            // One quad per cell: the drawn part of its column span by that of its row span.
            guard let yDrawn = cell.y.drawn, let xDrawn = cell.x.drawn else { continue }
            let y = yDrawn.clamped(to: rows), x = xDrawn.clamped(to: columns)
            if y.isEmpty || x.isEmpty { continue }
            let x0 = Float(x.lowerBound) - offset.0, x1 = Float(x.upperBound) - offset.0
            let y0 = Float(y.lowerBound) - offset.1, y1 = Float(y.upperBound) - offset.1
            for (px, py) in [(x0, y0), (x1, y0), (x0, y1), (x0, y1), (x1, y0), (x1, y1)] {
                vertices.append(contentsOf: [px, py, xRow, yRow, filled])
            }
            let name = job.textures[texture]
            if let last = runs.last, last.texture == name, last.firstQuad + last.quads == quadCount {
                runs[runs.count - 1].quads += 1
            } else {
                runs.append(Run(texture: name, firstQuad: quadCount, quads: 1))
            }
            quadCount += 1
        }
    }

    /// One axis's taps of `range` as a texture row starting at framebuffer position `at`.
    private mutating func addTaps(_ taps: AxisTaps, _ range: Range<Int>, spans: [AxisSpan], at: Int) {
        var texels = [UInt32](repeating: 0, count: range.count * 4)
        let skip = range.lowerBound - taps.range.lowerBound
        for k in 0..<range.count {
            let i = skip + k
            guard taps.visible[i], taps.spanIndex[i] >= 0 else { continue }
            let start = Int32(spans[Int(taps.spanIndex[i])].segment.start)
            texels[k * 4] = UInt32(taps.first[i] - start)
            texels[k * 4 + 1] = UInt32(taps.second[i] - start)
            texels[k * 4 + 2] = taps.weight[i]
            texels[k * 4 + 3] = 1
        }
        tapRows.append((at, texels))
        tapWidth = max(tapWidth, at + range.count)
    }

    /// The taps texture's texels, row after row, `tapWidth` wide.
    func tapTexels() -> [UInt32] {
        var all = [UInt32](repeating: 0, count: max(1, tapWidth) * tapRows.count * 4)
        for (index, row) in tapRows.enumerated() {
            let base = (index * tapWidth + row.start) * 4
            all.replaceSubrange(base..<base + row.texels.count, with: row.texels)
        }
        return all
    }
}
