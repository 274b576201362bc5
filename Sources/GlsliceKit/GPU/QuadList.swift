import CEGL

extension GPURenderer {
    /// Quads to draw into the framebuffer: one per (x piece, y piece) of each
    /// cell (one per cell: a span is one piece, `space` included), each with
    /// the attributes that map its pixels back to its job.
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

        /// Adds the part of `job`'s output in `columns × rows`, placed with that
        /// rectangle's corner at framebuffer pixel `at`.
        mutating func append(_ job: UploadedPlan, columns: Range<Int>, rows: Range<Int>, at: (x: Int, y: Int)) {
            let offset = (Float(columns.lowerBound - at.x), Float(rows.lowerBound - at.y))
            let linear: Float = job.plan.filter == .linear ? 1 : 0
            for (texture, cell) in job.draws {
                // A one-colour cell's texture is its one texel: u = 0 everywhere, no blend (CellFill).
                let filled = cell.fill != nil
                let cellSize = filled ? (Float(1), Float(1)) : (Float(cell.x.segment.length), Float(cell.y.segment.length))
                let cellLinear: Float = filled ? 0 : linear
                for yPiece in cell.y.pieces {
                    let y = yPiece.destination.clamped(to: rows)
                    if y.isEmpty { continue }
                    for xPiece in cell.x.pieces {
                        let x = xPiece.destination.clamped(to: columns)
                        if x.isEmpty { continue }
                        let x0 = Float(x.lowerBound) - offset.0, x1 = Float(x.upperBound) - offset.0
                        let y0 = Float(y.lowerBound) - offset.1, y1 = Float(y.upperBound) - offset.1
                        let mapping: [Float] = [
                            cellSize.0, cellSize.1, Float(xPiece.origin), Float(yPiece.origin),
                            filled ? 0 : Float(xPiece.num), filled ? 0 : Float(yPiece.num), Float(xPiece.den), Float(yPiece.den),
                            xPiece.addressing == .wrap ? 1 : 0, yPiece.addressing == .wrap ? 1 : 0,
                            offset.0, offset.1, cellLinear,
                            Float(xPiece.tiles?.gap ?? 0), Float(yPiece.tiles?.gap ?? 0),
                            Float(xPiece.tiles?.period ?? 1), Float(yPiece.tiles?.period ?? 1),
                            Float(xPiece.tiles?.count ?? 0), Float(yPiece.tiles?.count ?? 0),
                            Float(xPiece.tiles?.pixels ?? 0), Float(yPiece.tiles?.pixels ?? 0),
                        ]
                        for (px, py) in [(x0, y0), (x1, y0), (x0, y1), (x0, y1), (x1, y0), (x1, y1)] {
                            vertices.append(px)
                            vertices.append(py)
                            vertices.append(contentsOf: mapping)
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
            }
        }
    }
}
