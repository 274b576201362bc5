import Foundation

/// What `glslice inspect` reports about a source: its size, scale and lattice,
/// a nine-patch's padding and optical bounds, each scalable band's analysis,
/// and whether its @1x/@2x/@3x siblings (or an image set's variants) agree.
public struct Inspection: Sendable, Encodable {
    package struct Band: Sendable, Encodable {
        package var axis: Axis
        package var start: Int
        package var end: Int
        package var content: BandContent
        package var wholePeriods: Bool?
        /// The band's smallest length that still renders the same (in `tile` for a periodic band).
        package var smallest: Int
        package var pixelsToLose: Int

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

    public var file: String
    /// The PNG that was read (an image set's @1x variant, else `file`).
    public var source: String
    public var kind: SourceKind
    public var width: Int
    public var height: Int
    public var scale: Double
    public var defaultMode: ResizeMode
    package var latticeX: [LatticeSegment]
    package var latticeY: [LatticeSegment]
    package var padding: PixelInsets?
    package var optical: PixelInsets?
    package var bands: [Band]
    package var scales: ScaleAgreement

    enum CodingKeys: String, CodingKey {
        case file, source, kind, width, height, scale, padding, optical, bands, scales
        case defaultMode = "default-mode"
        case latticeX = "lattice-x"
        case latticeY = "lattice-y"
    }

    /// Inspects `path` (a PNG, `.9.png` or image set) with `insets` in points
    /// for a plain PNG (a nine-patch or sliced image set gives its own).
    /// `ninePatch` reads the border as markers whatever the name says (standard input).
    public static func make(path: String, insets: Insets = .zero, sourceScale: Double? = nil,
                            maxPixels: Int = Limits().maxSourcePixels, ninePatch: Bool = false,
                            warn: (String) -> Void = { _ in }) throws -> Inspection {
        // The source's pixels are let go before the scale check reads the other variants, one at a time.
        var inspection = try described(path: path, insets: insets, sourceScale: sourceScale, maxPixels: maxPixels,
                                       ninePatch: ninePatch, warn: warn)
        // Standard input has no siblings, and was read once already.
        if path != "-" { inspection.scales = try ScaleAgreement.check(path: path, insets: insets, maxPixels: maxPixels) }
        return inspection
    }

    /// Everything but the scale agreement, from the source `ResolvedSource` picks.
    private static func described(path: String, insets: Insets, sourceScale: Double?, maxPixels: Int,
                                  ninePatch: Bool, warn: (String) -> Void) throws -> Inspection {
        let loaded = try ResolvedSource.load(input: path, outputScale: nil, maxPixels: maxPixels, ninePatch: ninePatch).source
        if loaded.hints.looksLikeNinePatch { warn(NinePatch.unnamedWarning) }
        let (scale, lattice) = try slicing(loaded, insets: insets, sourceScale: sourceScale)
        var kind = SourceKind.named(path)
        if kind == .png && loaded.hints.ninePatch != nil { kind = .compiledNinePatch }
        return Inspection(
            file: path, source: loaded.file, kind: kind, width: loaded.size.width, height: loaded.size.height,
            scale: scale, defaultMode: loaded.hints.defaultMode ?? .auto,
            latticeX: lattice.x.map { LatticeSegment(start: $0.start, end: $0.end, scalable: $0.scalable) },
            latticeY: lattice.y.map { LatticeSegment(start: $0.start, end: $0.end, scalable: $0.scalable) },
            padding: loaded.hints.ninePatch?.padding, optical: loaded.hints.ninePatch?.optical,
            bands: RegionAnalysis.analyze(loaded.image, lattice: lattice).map(Band.init),
            scales: ScaleAgreement(variants: [], problems: []))
    }

    /// The scale and lattice the asset tools work on: the source's own (an image
    /// set's variant scale, a nine-patch's markers, cap-insets), else the file
    /// name's or `sourceScale`, and the lattice `insets` (points) give at it.
    static func slicing(_ source: SourceImage, insets: Insets, sourceScale: Double? = nil) throws -> (scale: Double, lattice: Lattice) {
        let scale = try source.hints.scale ?? Scale.source(of: source.file, option: sourceScale)
        if let given = source.hints.lattice {
            guard insets == .zero else { throw GlsliceError(.usage, file: source.file, source.hints.latticeOwner.refusal) }
            return (scale, given)
        }
        do {
            return (scale, try Lattice(width: source.size.width, height: source.size.height, insets: PixelInsets(insets, sourceScale: scale)))
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
        lines.append("  scales: " + scales.summary)
        lines += scales.problems.map { "    \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// Whether a source's scale variants describe the same thing in points:
/// `button.png`, `button@2x.png`, `button@3x.png` beside each other (or their
/// `.9.png` forms), or an image set's entries.
package struct ScaleAgreement: Sendable, Encodable {
    package struct Variant: Sendable, Encodable {
        package var file: String
        package var scale: Double
        package var width: Int
        package var height: Int
    }

    package var variants: [Variant]
    /// Each disagreement in one line; empty when they agree.
    package var problems: [String]
    package var agree: Bool { problems.isEmpty }

    enum CodingKeys: String, CodingKey { case variants, problems, agree }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(variants, forKey: .variants)
        try c.encode(problems, forKey: .problems)
        try c.encode(agree, forKey: .agree)
    }

    var summary: String {
        if variants.count < 2 { return "no other scale found beside it" }
        let list = variants.map { "@\(formatNumber($0.scale))x \($0.width)x\($0.height)" }.joined(separator: ", ")
        return (agree ? "agree" : "disagree") + " (\(list))"
    }

    /// The lattice of a variant in points: each segment's ends and kind.
    private struct PointLattice: Equatable {
        var x: [String]
        var y: [String]
        init(_ lattice: Lattice, scale: Double) {
            func points(_ segments: [Segment]) -> [String] {
                segments.map { "\(formatNumber(Double($0.start) / scale))-\(formatNumber(Double($0.end) / scale))\($0.scalable ? "s" : "f")" }
            }
            x = points(lattice.x)
            y = points(lattice.y)
        }
    }

    static func check(path: String, insets: Insets, maxPixels: Int) throws -> ScaleAgreement {
        // Only each variant's size and lattice are kept: its pixels go before the next is read.
        var found: [(file: String, scale: Double, size: PixelSize, lattice: Lattice?)] = []
        var problems: [String] = []
        if ImageSet.isImageSet(path: path) {
            let set = try ImageSet(path: path)
            for variant in set.variants.sorted(by: { $0.scale < $1.scale }) {
                var source = try SourceImage.load(path: variant.file, maxPixels: maxPixels)
                if let resizing = variant.resizing { source = try ImageSet.apply(resizing, to: source, file: variant.file) }
                found.append((variant.file, variant.scale, source.size, source.hints.lattice))
            }
        } else {
            for (file, scale) in siblings(of: path) {
                let source = try SourceImage.load(path: file, maxPixels: maxPixels)
                var lattice = source.hints.lattice
                if lattice == nil {
                    do {
                        lattice = try Lattice(width: source.size.width, height: source.size.height,
                                              insets: PixelInsets(insets, sourceScale: scale))
                    } catch let error as GlsliceError {
                        problems.append("\(PathText.name(of: file)): \(error.message)")
                    }
                }
                found.append((file, scale, source.size, lattice))
            }
        }
        let variants = found.map { Variant(file: $0.file, scale: $0.scale, width: $0.size.width, height: $0.size.height) }
        guard let first = found.first else { return ScaleAgreement(variants: [], problems: problems) }
        func name(_ file: String) -> String { PathText.name(of: file) }
        func points(_ px: Int, _ scale: Double) -> String { formatNumber((Double(px) / scale * 1000).rounded() / 1000) }
        for other in found.dropFirst() {
            let a = "\(points(first.size.width, first.scale))x\(points(first.size.height, first.scale)) pt"
            let b = "\(points(other.size.width, other.scale))x\(points(other.size.height, other.scale)) pt"
            if a != b {
                problems.append("\(name(other.file)) is \(b) (\(other.size) px at @\(formatNumber(other.scale))x), but \(name(first.file)) is \(a)")
            }
            if let la = first.lattice, let lb = other.lattice, PointLattice(la, scale: first.scale) != PointLattice(lb, scale: other.scale) {
                problems.append("\(name(other.file))'s caps and scalable segments, in points, differ from \(name(first.file))'s")
            }
        }
        return ScaleAgreement(variants: variants, problems: problems)
    }

    /// `stem.png`, `stem@2x.png`, `stem@3x.png` (with `.9.png` when `path` has it) that exist, with their scales.
    static func siblings(of path: String) -> [(String, Double)] {
        let folder = PathText.folder(of: path)
        let name = PathText.name(of: path)
        let ext = name.lowercased().hasSuffix(".9.png") ? String(name.suffix(6)) : name.lowercased().hasSuffix(".png") ? String(name.suffix(4)) : ""
        guard !ext.isEmpty else { return [(path, Scale.inferred(fromFileName: path) ?? 1)] }
        var stem = String(name.dropLast(ext.count))
        if let at = stem.lastIndex(of: "@"), Scale.inferred(fromFileName: name) != nil { stem = String(stem[..<at]) }
        var result: [(String, Double)] = []
        for (suffix, scale) in [("", 1.0), ("@2x", 2.0), ("@3x", 3.0)] {
            let candidate = (folder.isEmpty ? "" : folder + "/") + stem + suffix + ext
            if FileManager.default.fileExists(atPath: candidate) { result.append((candidate, scale)) }
        }
        return result.isEmpty ? [(path, Scale.inferred(fromFileName: path) ?? 1)] : result
    }
}
