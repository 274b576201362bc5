import Foundation

/// `glslice preview`: a contact sheet to look at. For each source: its name,
/// the source magnified with nearest sampling and its lattice drawn over it
/// (cap lines magenta, other lattice lines cyan, a nine-patch's padding box
/// green, optical bounds dashed red), then one row per mode that applies with
/// renders at five sizes: smaller than the caps, natural, wide, tall, large.
/// Everything sits on a checkerboard, and every tile has a label.
///
/// Memory is planned before anything is drawn: sources are read one at a time
/// to lay the sheet out (a large one is dropped and read again when its block
/// is drawn), then the sheet's size is checked against `maxPixels` and the
/// address space left, so an oversized sheet is exit 65, not an abort.
package enum ContactSheet {
    static let margin = 12, gap = 10, labelScale = 2
    /// A sheet is for looking at: 256 Mpx (1 GiB of pixels) is far past what a viewer opens.
    package static let defaultMaxPixels = 256_000_000
    /// Sources up to this many pixels stay in memory between layout and drawing.
    static let keptSourcePixels = 4_000_000
    static var labelHeight: Int { BitmapFont.height * labelScale + 6 }

    /// One source's block of the sheet, planned before it is drawn.
    struct Block {
        var title: String
        var path: String
        var sourceSize: PixelSize
        var hints: SourceHints
        /// The source's pixels, or nil when it is large: read again to draw it.
        var pixels: PremultipliedImage?
        var lattice: Lattice
        var magnification: Int
        var rows: [(label: String, tiles: [(label: String, image: PremultipliedImage)])]

        /// Where the tiles start, after the widest mode label.
        var tilesX: Int { (rows.map { Canvas.labelWidth($0.label) }.max() ?? 0) + ContactSheet.gap }

        var width: Int {
            let sourceWidth = sourceSize.width * magnification
            let rowWidths = rows.map { row in
                tilesX
                    + row.tiles.map { max($0.image.width, Canvas.labelWidth($0.label)) + ContactSheet.gap }.reduce(0, +)
            }
            return max(sourceWidth, Canvas.labelWidth(title), rowWidths.max() ?? 0)
        }

        var height: Int {
            ContactSheet.labelHeight + sourceSize.height * magnification + ContactSheet.gap
                + rows.map { row in ContactSheet.labelHeight + (row.tiles.map(\.image.height).max() ?? 0) + ContactSheet.gap }.reduce(0, +)
        }
    }

    /// The five sizes, in pixels at k = 1, for a lattice.
    static func sizes(for lattice: Lattice) -> [(String, PixelSize)] {
        let w = lattice.width, h = lattice.height
        let fx = lattice.x.filter { !$0.scalable }.map(\.length).reduce(0, +)
        let fy = lattice.y.filter { !$0.scalable }.map(\.length).reduce(0, +)
        func size(_ a: Int, _ b: Int) -> PixelSize { PixelSize(width: max(1, min(a, 360)), height: max(1, min(b, 240))) }
        return [("small", size(max(1, fx * 2 / 3), max(1, fy * 2 / 3))), ("natural", size(w, h)),
                ("wide", size(max(3 * w, 60), h)), ("tall", size(w, max(3 * h, 60))), ("large", size(max(4 * w, 120), max(3 * h, 90)))]
    }

    static func block(path: String, insets: Insets, runs: LatticeRuns?, maxPixels: Int) throws -> Block {
        let resolved = try ResolvedSource.load(input: path, outputScale: nil, maxPixels: maxPixels)
        let source = resolved.source
        // Insets are for plain PNGs; a nine-patch or sliced image set gives its own lattice.
        let insets = source.hints.lattice == nil ? insets : .zero
        let runs = source.hints.lattice == nil ? runs : nil
        let (scale, lattice) = try Inspection.slicing(source, insets: insets, runs: runs)
        let magnification = max(1, min(8, 200 / max(source.size.width, source.size.height)))
        let defaultMode = source.hints.defaultMode ?? .auto
        let modes = [defaultMode] + ([.stretch, .tile, .repeat, .round, .space] as [ResizeMode]).filter { $0 != defaultMode }
        var rows: [(label: String, tiles: [(label: String, image: PremultipliedImage)])] = []
        for mode in modes {
            var tiles: [(label: String, image: PremultipliedImage)] = []
            for (name, size) in sizes(for: lattice) {
                var request = RenderRequest(size: .pixels(size), outputScale: scale, insets: insets, lattice: runs)
                request.modes = PerAxis(both: mode)
                let job = try PreparedJob(request: request, source: resolved, limits: Limits())
                tiles.append(("\(name) \(size.width)x\(size.height)", try Backend.cpu.image(job.plan, source: source.image)))
            }
            rows.append((mode == defaultMode ? "\(mode.rawValue) (default)" : mode.rawValue, tiles))
        }
        let title = "\(PathText.name(of: path))  \(source.size.width)x\(source.size.height) px @\(formatNumber(scale))x  x\(magnification)"
        // Standard input cannot be read twice, so its pixels are always kept.
        let kept = path == "-" || source.size.width * source.size.height <= keptSourcePixels ? source.image : nil
        return Block(title: title, path: path, sourceSize: source.size, hints: source.hints, pixels: kept,
                     lattice: lattice, magnification: magnification, rows: rows)
    }

    /// The sheet for `paths` (each with `insets` or `runs` unless it gives its own lattice).
    /// Throws `.badInput` when the sheet would exceed `maxSheetPixels` or the memory left.
    package static func make(paths: [String], insets: Insets = .zero, runs: LatticeRuns? = nil, maxPixels: Int = Limits().maxSourcePixels,
                            maxSheetPixels: Int = defaultMaxPixels) throws -> PremultipliedImage {
        guard paths.filter({ $0 == "-" }).count <= 1 else {
            throw UsageErrors.standardInputTwice()
        }
        let blocks = try paths.map { path in
            do { return try block(path: path, insets: insets, runs: runs, maxPixels: maxPixels) } catch let error as GlsliceError { throw error.about(path) }
        }
        let width = max(blocks.map(\.width).max() ?? 0, legendWidth) + 2 * margin
        let height = blocks.map { $0.height + margin }.reduce(margin + labelHeight + gap, +)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxSheetPixels else {
            throw InputErrors.contactSheetOverLimit(width: width, height: height, megapixels: maxSheetPixels / 1_000_000)
        }
        // The canvas, and a dropped source read again (twice its pixels while it is premultiplied).
        let reread = blocks.filter { $0.pixels == nil }.map { $0.sourceSize.width * $0.sourceSize.height * 8 }.max() ?? 0
        try ensureMemory(pixels * 4 + reread, for: "a \(width)x\(height) px contact sheet")
        var canvas = Canvas(width: width, height: height, background: [250, 250, 247, 255])
        drawLegend(into: &canvas, x: margin, y: margin)
        var y = margin + labelHeight + gap
        for block in blocks {
            let image: PremultipliedImage
            if let kept = block.pixels {
                image = kept
            } else {
                do {
                    image = try ResolvedSource.load(input: block.path, outputScale: nil, maxPixels: maxPixels).source.image
                } catch let error as GlsliceError { throw error.about(block.path) }
            }
            draw(block, image: image, into: &canvas, x: margin, y: y)
            y += block.height + margin
        }
        return canvas.image
    }

    /// The lines drawn over each source, and what they mean (the sheet's legend says it).
    static let capColour: [UInt8] = [200, 0, 200, 255], latticeColour: [UInt8] = [0, 170, 200, 255]
    static let paddingColour: [UInt8] = [0, 160, 60, 255], opticalColour: [UInt8] = [220, 30, 30, 255]
    static let legend: [(words: String, colour: [UInt8])] = [
        ("caps", capColour), ("other lattice lines", latticeColour), (".9.png padding", paddingColour),
        ("optical bounds (dashed)", opticalColour),
    ]
    static var legendWidth: Int { legend.map { labelHeight + Canvas.labelWidth($0.words, scale: labelScale) + 2 * gap }.reduce(0, +) }

    /// One row at the top: a swatch and the words for each kind of line.
    static func drawLegend(into canvas: inout Canvas, x left: Int, y: Int) {
        var x = left
        for entry in legend {
            canvas.fill(x: x, y: y, width: labelHeight - 6, height: labelHeight - 6, entry.colour)
            x += labelHeight
            x += canvas.label(entry.words, x: x, y: y, scale: labelScale, colour: entry.colour) + 2 * gap
        }
    }

    static func draw(_ block: Block, image: PremultipliedImage, into canvas: inout Canvas, x: Int, y top: Int) {
        var y = top
        canvas.label(block.title, x: x, y: y, scale: labelScale)
        y += labelHeight
        let m = block.magnification, w = block.sourceSize.width, h = block.sourceSize.height
        canvas.draw(image, x: x, y: y, scale: m)
        let cap = Self.capColour, line = Self.latticeColour
        for (index, segment) in block.lattice.x.enumerated() where index > 0 {
            let isCap = index == 1 || index == block.lattice.x.count - 1
            canvas.fill(x: x + segment.start * m, y: y, width: 1, height: h * m, isCap ? cap : line)
        }
        for (index, segment) in block.lattice.y.enumerated() where index > 0 {
            let isCap = index == 1 || index == block.lattice.y.count - 1
            canvas.fill(x: x, y: y + segment.start * m, width: w * m, height: 1, isCap ? cap : line)
        }
        if let bounds = block.hints.ninePatch {
            let p = bounds.padding, o = bounds.optical
            canvas.outline(x: x + p.left * m, y: y + p.top * m, width: max(1, (w - p.left - p.right) * m),
                           height: max(1, (h - p.top - p.bottom) * m), Self.paddingColour)
            if o != .zero {
                canvas.outline(x: x + o.left * m, y: y + o.top * m, width: max(1, (w - o.left - o.right) * m),
                               height: max(1, (h - o.top - o.bottom) * m), Self.opticalColour, dashed: true)
            }
        }
        y += h * m + gap
        for row in block.rows {
            let rowHeight = row.tiles.map(\.image.height).max() ?? 0
            canvas.label(row.label, x: x, y: y + labelHeight, scale: labelScale, colour: [60, 60, 140, 255])
            var tx = x + block.tilesX
            for tile in row.tiles {
                canvas.label(tile.label, x: tx, y: y, scale: labelScale, colour: [90, 90, 90, 255])
                canvas.draw(tile.image, x: tx, y: y + labelHeight)
                tx += max(tile.image.width, Canvas.labelWidth(tile.label)) + gap
            }
            y += labelHeight + rowHeight + gap
        }
    }
}
