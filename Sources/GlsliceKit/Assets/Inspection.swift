import Foundation

/// What `glslice inspect` reports about a source: its size, scale and lattice,
/// a nine-patch's padding and optical bounds, each scalable band's analysis,
/// and whether its @1x/@2x/@3x siblings (or an image set's variants) agree.
public struct Inspection: Sendable, Encodable {
    package struct Band: Sendable, Encodable {
        package var axis: Axis
        package var start: Int
        package var end: Int
        var content: BandContent
        var wholePeriods: Bool?
        /// The band's smallest length that still renders the same (in `tile` for a periodic band).
        var smallest: Int
        var pixelsToLose: Int

        enum CodingKeys: String, CodingKey {
            case axis, start, end, content, period, smallest
            case wholePeriods = "whole-periods"
            case pixelsToLose = "pixels-to-lose"
        }

        /// `content` as its name (`solid`, `gradient`, `periodic`, `none`), a periodic band's `period` beside it.
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(axis, forKey: .axis)
            try c.encode(start, forKey: .start)
            try c.encode(end, forKey: .end)
            try c.encode(content.name, forKey: .content)
            if case .periodic(let period) = content { try c.encode(period, forKey: .period) }
            try c.encodeIfPresent(wholePeriods, forKey: .wholePeriods)
            try c.encode(smallest, forKey: .smallest)
            try c.encode(pixelsToLose, forKey: .pixelsToLose)
        }

        init(_ band: BandAnalysis) {
            axis = band.axis
            start = band.segment.start
            end = band.segment.end
            content = band.content
            if case .periodic = band.content { wholePeriods = band.wholePeriods }
            smallest = band.smallestLength
            pixelsToLose = band.pixelsToLose
        }
    }

    package struct LatticeSegment: Sendable, Encodable {
        package var start: Int
        package var end: Int
        package var scalable: Bool
    }

    /// A lattice cell whose source pixels are all one colour: renders fill it
    /// without sampling (aapt2's `regionColors`, Skia's `kFixedColor`).
    struct FilledCell: Sendable, Encodable {
        package var x: LatticeSegment
        package var y: LatticeSegment
        /// `transparent`, or the colour as straight `#RRGGBBAA`.
        var colour: String
    }

    package var file: String
    /// The PNG that was read (an image set's @1x variant, else `file`).
    package var source: String
    package var kind: SourceKind
    package var width: Int
    package var height: Int
    package var scale: Double
    package var defaultMode: ResizeMode
    package var latticeX: [LatticeSegment]
    package var latticeY: [LatticeSegment]
    package var padding: PixelInsets?
    package var optical: PixelInsets?
    var bands: [Band]
    var filledCells: [FilledCell]
    var scales: ScaleAgreement

    enum CodingKeys: String, CodingKey {
        case file, source, kind, width, height, scale, padding, optical, bands, scales
        case filledCells = "filled-cells"
        case defaultMode = "default-mode"
        case latticeX = "lattice-x"
        case latticeY = "lattice-y"
    }

    /// Inspects `path` (a PNG, `.9.png` or image set) with `insets` or `lattice`
    /// in points for a plain PNG (a nine-patch or sliced image set gives its own).
    /// `ninePatch` reads the border as markers whatever the name says (standard input).
    public static func make(path: String, insets: Insets = .zero, lattice runs: LatticeRuns? = nil, sourceScale: Double? = nil,
                            maxPixels: Int = Limits().maxSourcePixels, ninePatch: Bool = false,
                            warn: (String) -> Void = { _ in }) throws -> Inspection {
        // The source's pixels are let go before the scale check reads the other variants, one at a time.
        var inspection = try described(path: path, insets: insets, runs: runs, sourceScale: sourceScale, maxPixels: maxPixels,
                                       ninePatch: ninePatch, warn: warn)
        // Standard input has no siblings, and was read once already.
        if path != "-" { inspection.scales = try ScaleAgreement.check(path: path, insets: insets, runs: runs, maxPixels: maxPixels) }
        return inspection
    }

    /// Everything but the scale agreement, from the source `ResolvedSource` picks.
    private static func described(path: String, insets: Insets, runs: LatticeRuns?, sourceScale: Double?, maxPixels: Int,
                                  ninePatch: Bool, warn: (String) -> Void) throws -> Inspection {
        let loaded = try ResolvedSource.load(input: path, outputScale: nil, maxPixels: maxPixels, ninePatch: ninePatch).source
        if loaded.hints.looksLikeNinePatch { warn(NinePatch.unnamedWarning) }
        let (scale, lattice) = try slicing(loaded, insets: insets, runs: runs, sourceScale: sourceScale)
        var kind = SourceKind.named(path)
        if kind == .png && loaded.hints.ninePatch != nil { kind = .compiledNinePatch }
        return Inspection(
            file: path, source: loaded.file, kind: kind, width: loaded.size.width, height: loaded.size.height,
            scale: scale, defaultMode: loaded.hints.defaultMode ?? .auto,
            latticeX: lattice.x.map { LatticeSegment(start: $0.start, end: $0.end, scalable: $0.scalable) },
            latticeY: lattice.y.map { LatticeSegment(start: $0.start, end: $0.end, scalable: $0.scalable) },
            padding: loaded.hints.ninePatch?.padding, optical: loaded.hints.ninePatch?.optical,
            bands: RegionAnalysis.analyze(loaded.image, lattice: lattice).map(Band.init),
            filledCells: filledCells(loaded.image, lattice: lattice),
            scales: ScaleAgreement(variants: [], problems: []))
    }

    /// Every cell of `lattice` whose pixels are one colour, row by row.
    static func filledCells(_ image: PremultipliedImage, lattice: Lattice) -> [FilledCell] {
        func segment(_ s: Segment) -> LatticeSegment { LatticeSegment(start: s.start, end: s.end, scalable: s.scalable) }
        return lattice.y.flatMap { y in
            lattice.x.compactMap { x in
                CellFill.of((x.start..<x.end, y.start..<y.end), in: image).map { fill in
                    FilledCell(x: segment(x), y: segment(y), colour: fill == .transparent ? "transparent" : fill.hex)
                }
            }
        }
    }

    /// The scale and lattice the asset tools work on: the source's own (an image
    /// set's variant scale, a nine-patch's markers, cap-insets), else the file
    /// name's or `sourceScale`, and the lattice `insets` or `runs` (points) give at it.
    static func slicing(_ source: SourceImage, insets: Insets, runs: LatticeRuns? = nil,
                        sourceScale: Double? = nil) throws -> (scale: Double, lattice: Lattice) {
        let scale = try source.hints.scale ?? Scale.source(of: source.file, option: sourceScale)
        do {
            return (scale, try source.hints.drawnLattice(width: source.size.width, height: source.size.height,
                                                         insets: insets, runs: runs, sourceScale: scale))
        } catch let error as GlsliceError {
            throw error.about(source.file)
        }
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// The report for people.
    public var text: String {
        func segments(_ list: [LatticeSegment]) -> String {
            list.map { "\($0.start)-\($0.end) \($0.scalable ? "scalable" : "fixed")" }.joined(separator: ", ")
        }
        func insets(_ i: PixelInsets?) -> String {
            guard let i else { return "none" }
            return "top \(i.top), left \(i.left), bottom \(i.bottom), right \(i.right) px"
        }
        var lines = ["\(file): \(kind.rawValue), \(width)x\(height) px at @\(formatNumber(scale))x, default mode \(defaultMode.rawValue)"]
        if source != file { lines.append("  read from \(source)") }
        lines.append("  lattice x: \(segments(latticeX))")
        lines.append("  lattice y: \(segments(latticeY))")
        if kind.isNinePatch {
            lines.append("  padding: \(insets(padding))")
            lines.append("  optical bounds: \(optical == .zero ? "none" : insets(optical))")
        }
        for band in bands {
            let wide = band.axis == .x ? "wide" : "tall"
            let what: String
            switch band.content {
            case .solid: what = "solid: 1 px would do"
            case .gradient: what = "gradient along \(band.axis == .x ? "y" : "x"): 1 px \(wide) would do"
            case .periodic(let p):
                what = band.wholePeriods == true ? "periodic, period \(p) px (a whole number of periods): one period would do in tile mode"
                    : "periodic, period \(p) px, but not a whole number of periods: keep it"
            case .none: what = "no simpler form: keep it"
            }
            let lose = band.pixelsToLose > 0 ? "could lose \(band.pixelsToLose) px" : "nothing to lose"
            lines.append("  \(band.axis.rawValue) band \(band.start)-\(band.end) (\(band.end - band.start) px): \(what); \(lose)")
        }
        if bands.isEmpty { lines.append("  no scalable band (give --insets to say where the caps are)") }
        if !filledCells.isEmpty {
            let cells = filledCells.map { "x \($0.x.start)-\($0.x.end) y \($0.y.start)-\($0.y.end) \($0.colour)" }
            lines.append("  one-colour cells (filled, not sampled): " + cells.joined(separator: ", "))
        }
        lines.append("  scales: " + scales.summary)
        lines += scales.problems.map { "    \($0)" }
        return lines.joined(separator: "\n")
    }
}
