import Foundation

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

    var variants: [Variant]
    /// Each disagreement in one line; empty when they agree.
    var problems: [String]
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

    static func check(path: String, insets: Insets, runs: LatticeRuns? = nil, maxPixels: Int) throws -> ScaleAgreement {
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
                                              insets: insets, runs: runs, sourceScale: scale)
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
