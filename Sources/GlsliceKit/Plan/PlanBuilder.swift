/// The only place that builds a `Plan`: it settles the scales, the
/// lattice and the modes from the request and the source's hints, checks the
/// limits, and hands the geometry to `Layout` (docs/RENDERING.md §1–§2).
package enum PlanBuilder {
    /// The plan for drawing `source` as `request` asks, its one-colour cells marked.
    package static func plan(_ request: RenderRequest, source: SourceImage, limits: Limits = Limits()) throws -> Plan {
        var plan = try plan(request, sourceSize: source.size, file: source.file, hints: source.hints, limits: limits)
        plan.markFills(from: source.image)
        return plan
    }

    /// The plan for a source of `sourceSize` read from `file` (whose name may carry `@Nx`).
    package static func plan(_ request: RenderRequest, sourceSize: PixelSize, file: String,
                            hints: SourceHints = SourceHints(), limits: Limits = Limits()) throws -> Plan {
        do {
            let sourceScale = try hints.scale ?? request.resolvedSourceScale(path: file)
            let outputScale = self.outputScale(request, hints: hints, sourceScale: sourceScale)
            let k = try scaleRatio(output: outputScale, source: sourceScale)
            let pixels = try outputSize(request, hints: hints, sourceScale: sourceScale)
            try check(pixels, limits: limits)
            let lattice = try hints.drawnLattice(width: sourceSize.width, height: sourceSize.height,
                                                 insets: request.insets, runs: request.lattice, sourceScale: sourceScale)
            var modes = request.modes
            if let mode = hints.defaultMode, modes == PerAxis(both: .auto) { modes = PerAxis(both: mode) }
            let caps = try request.borderWidth.map { try CapWidths.make($0, outputScale: outputScale, lattice: lattice, k: k) }
            return try Plan(lattice: lattice, size: pixels, k: k, modes: modes, filter: request.filter,
                                  fillCenter: request.fillCenter, small: request.small, caps: caps)
        } catch let error as GlsliceError {
            throw error.about(file)
        }
    }

    /// The output scale: the request's, else the source's own default (an image set draws at @1x), else the source scale.
    static func outputScale(_ request: RenderRequest, hints: SourceHints, sourceScale: Double) -> Double {
        request.outputScale ?? hints.defaultOutputScale ?? sourceScale
    }

    /// The output's size in pixels: the request's size at the output scale,
    /// grown by its outset. What a plan's size will be, known without the
    /// source's pixels (`--resume` checks a finished plain PNG by it).
    static func outputSize(_ request: RenderRequest, hints: SourceHints = SourceHints(),
                                   sourceScale: Double) throws -> PixelSize {
        let scale = outputScale(request, hints: hints, sourceScale: sourceScale)
        return try outset(request.size.pixels(atScale: scale), by: request.outset, outputScale: scale)
    }

    /// The plan for a lattice, size and ratio already settled (parity's random
    /// cases and the optimizer's comparisons, which have no request).
    package static func plan(lattice: Lattice, size: PixelSize, k: Double, modes: PerAxis<ResizeMode>,
                            filter: Filter, fillCenter: Bool, small: SmallTarget = .proportional) throws -> Plan {
        try Plan(lattice: lattice, size: size, k: k, modes: modes, filter: filter, fillCenter: fillCenter, small: small)
    }

    /// The box grown by `--outset` on each side (points at `outputScale`, whole pixels).
    static func outset(_ box: PixelSize, by outset: Insets?, outputScale: Double) throws -> PixelSize {
        guard let outset else { return box }
        func pixels(_ value: Double, _ side: String) throws -> Int {
            guard let px = wholePixels(value * outputScale), px <= Int(Int32.max) else {
                throw InputErrors.offPixelGrid(side, points: formatNumber(value), scale: outputScale, kind: .usage, option: .outset)
            }
            return px
        }
        let width = box.width.addingReportingOverflow(try pixels(outset.left, "left") + pixels(outset.right, "right"))
        let height = box.height.addingReportingOverflow(try pixels(outset.top, "top") + pixels(outset.bottom, "bottom"))
        guard !width.overflow, !height.overflow else { throw UsageErrors.tooLarge(option: .outset) }
        return PixelSize(width: width.partialValue, height: height.partialValue)
    }

    /// `k = s_out / s_src`, refused outside 1/64…64: a sub-pixel tile per output
    /// pixel makes `space` lay out millions of tiles, and no UI needs it.
    static func scaleRatio(output: Double, source: Double) throws -> Double {
        let k = output / source
        guard k >= 1.0 / 64 - 1e-12, k <= 64 + 1e-9 else {
            throw UsageErrors.scaleRatio(output: output, source: source, ratio: k)
        }
        return k
    }

    static func check(_ pixels: PixelSize, limits: Limits) throws {
        guard pixels.width <= Int(Int32.max), pixels.height <= Int(Int32.max),
              pixels.width.multipliedReportingOverflow(by: pixels.height).overflow == false,
              pixels.pixelCount <= limits.maxOutputPixels else {
            throw InputErrors.outputOverLimit(pixels: "\(pixels)", limit: limits.maxOutputPixels)
        }
    }
}
