import Foundation
import GlsliceKit

/// What the preview page reads about the sources under the root: the list to
/// pick from, and each one's size, scale, lattice and nine-patch bounds.
struct PreviewCatalog: Sendable {
    let root: SourceRoot
    let limits: Limits
    /// The list stops here: a page of sources, not a crawl of a whole disk.
    static let maxSources = 2000
    static let maxDepth = 8

    struct Entry: Encodable {
        var path: String
        /// `png`, `nine-patch` or `imageset`.
        var kind: String
    }

    struct Info: Encodable {
        var path: String
        var kind: String
        /// The artwork's size in pixels (a nine-patch's without its marker border).
        var width: Int
        var height: Int
        /// The source scale (@Nx): insets in points are pixels ÷ this.
        var scale: Double
        /// Who gives the lattice: `markers`, `cap-insets`, or nil (the request's insets).
        var latticeOwner: String?
        /// Segments along x and y as [start, end, scalable] in pixels, when the source gives them.
        var latticeX: [[Int]]?
        var latticeY: [[Int]]?
        var padding: PixelInsets?
        var optical: PixelInsets?
        var defaultMode: String?
    }

    func sources() -> [Entry] {
        var found: [Entry] = []
        walk(root.path, relative: "", depth: 0, into: &found)
        return found.sorted { $0.path < $1.path }
    }

    private func walk(_ folder: String, relative: String, depth: Int, into found: inout [Entry]) {
        guard depth <= Self.maxDepth, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            guard found.count < Self.maxSources else { return }
            let path = relative.isEmpty ? name : relative + "/" + name
            // Only what a render URL could reach (no links out of the root).
            guard let file = root.file(named: path) else { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else { continue }
            if name.hasSuffix(".imageset") {
                found.append(Entry(path: path, kind: "imageset"))
            } else if isFolder.boolValue {
                walk(file, relative: path, depth: depth + 1, into: &found)
            } else if name.lowercased().hasSuffix(".png") {
                found.append(Entry(path: path, kind: NinePatch.isNinePatch(path: name) ? "nine-patch" : "png"))
            }
        }
    }

    func info(escapedPath: Substring, outputScale: Double?) -> Result<Info, Refusal> {
        guard let file = root.file(forEscaped: escapedPath) else { return .failure(.notFound) }
        do {
            let source = try ResolvedSource.load(input: file, outputScale: outputScale, maxPixels: limits.maxSourcePixels).source
            let hints = source.hints
            let relative = String(file.dropFirst(root.path.count + 1))
            let kind = ImageSet.isImageSet(path: file) ? "imageset" : (hints.ninePatch != nil ? "nine-patch" : "png")
            let scale = try hints.scale ?? Scale.source(of: source.file, option: nil)
            func segments(_ list: [Segment]) -> [[Int]] { list.map { [$0.start, $0.end, $0.scalable ? 1 : 0] } }
            return .success(Info(
                path: relative, kind: kind, width: source.size.width, height: source.size.height, scale: scale,
                latticeOwner: hints.lattice == nil ? nil : (hints.latticeOwner == .markers ? "markers" : "cap-insets"),
                latticeX: hints.lattice.map { segments($0.x) }, latticeY: hints.lattice.map { segments($0.y) },
                padding: hints.ninePatch?.padding, optical: hints.ninePatch?.optical,
                defaultMode: hints.defaultMode?.rawValue))
        } catch let error as GlsliceError {
            if error.kind == .noInput { return .failure(.notFound) }
            return .failure(Refusal(status: 400, message: root.redact(error.description)))
        } catch {
            return .failure(Refusal(status: 500, message: "internal error (a bug: please report it)"))
        }
    }
}
