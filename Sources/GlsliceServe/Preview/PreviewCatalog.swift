import Foundation
import GlsliceKit

/// What the preview page reads about the sources under the root: the list to
/// pick from, and each one's size, scale, lattice and nine-patch bounds.
/// Both run on the render threads, under the renders' admission (503 when full).
struct PreviewCatalog: Sendable {
    let files: PreviewFiles
    /// The list stops here: a page of sources, not a crawl of a whole disk.
    static let maxSources = 2000
    static let maxDepth = 8
    /// The walk's cost is bounded by folders visited and names read, whatever
    /// the tree: each folder (by device and inode) is visited once, so folders
    /// that link to themselves or each other end the walk rather than repeat it.
    static let maxFolders = 500
    static let maxNames = 50_000

    struct Entry: Encodable {
        var path: String
        /// `png`, `nine-patch` or `imageset`.
        var kind: SourceKind
        /// Why a render of it would be refused (a nine-patch's bad markers, a corrupt PNG), read
        /// for files up to `checkedBytes`: the page keeps such files out of its menu unless asked.
        var broken: String?
        /// The file's size (not sent).
        var bytes = 0

        private enum CodingKeys: String, CodingKey { case path, kind, broken }
    }

    /// Files up to this size are read as a render reads them when listed (UI sources are a few KiB).
    static let checkedBytes = 256 << 10

    struct Info: Encodable {
        var path: String
        var kind: SourceKind
        /// The PNG that was read: an image set's variant for this scale, else `path` (the page's CSS names it).
        var image: String
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
        /// For a plain PNG, the page's first caps and modes (`CapGuess`): insets in points, top, left, bottom, right.
        var guess: Guess?
    }

    struct Guess: Encodable {
        var insets: [Double]
        var modeX: String
        var modeY: String
    }

    /// The sources under the root, sorted; nil when the render queue is full.
    func sources() async -> [Entry]? {
        await files.pool.perform { [self] in listSources() }
    }

    func listSources() -> [Entry] {
        var walk = Walk()
        walk.visit("", depth: 0, in: files.root.scope)
        var found = walk.found.sorted { $0.path < $1.path }
        for i in found.indices where found[i].kind != .imageSet && found[i].bytes <= Self.checkedBytes {
            do {
                _ = try ResolvedSource.load(input: found[i].path, outputScale: nil, maxPixels: files.limits.maxSourcePixels,
                                            scope: files.root.scope, keyed: false)
            } catch {
                found[i].broken = Refusal(error, file: nil, root: files.root).message
            }
        }
        return found
    }

    /// One listing's budget and findings.
    private struct Walk {
        var found: [Entry] = []
        var visited: Set<FileIdentity> = []
        var folders = 0
        var names = 0

        mutating func visit(_ relative: String, depth: Int, in scope: FileScope) {
            guard depth <= PreviewCatalog.maxDepth, folders < PreviewCatalog.maxFolders, names < PreviewCatalog.maxNames,
                  let listing = scope.listFolder(relative, limit: PreviewCatalog.maxNames - names),
                  visited.insert(listing.identity).inserted else { return }
            folders += 1
            names += listing.names.count
            for name in listing.names.sorted() where !name.hasPrefix(".") {
                guard found.count < PreviewCatalog.maxSources else { return }
                let path = relative.isEmpty ? name : relative + "/" + name
                // Only what a render URL could reach: opened beneath the root, as a render opens it.
                guard let status = scope.status(of: path) else { continue }
                let type = status.st_mode & S_IFMT
                if name.hasSuffix(".imageset") {
                    if type == S_IFDIR { found.append(Entry(path: path, kind: .imageSet)) }
                } else if type == S_IFDIR {
                    visit(path, depth: depth + 1, in: scope)
                } else if type == S_IFREG && name.lowercased().hasSuffix(".png") {
                    found.append(Entry(path: path, kind: SourceKind.named(name), bytes: Int(status.st_size)))
                }
            }
        }
    }

    /// A source's facts for the page, decoded on a render thread.
    func info(escapedPath: Substring, outputScale: Double?) async -> Result<Info, Refusal> {
        guard let file = files.root.file(forEscaped: escapedPath) else { return .failure(.notFound) }
        let answer = await files.pool.perform { [self] in info(file: file, outputScale: outputScale) }
        return answer ?? .failure(.busy)
    }

    private func info(file: String, outputScale: Double?) -> Result<Info, Refusal> {
        do {
            let source = try ResolvedSource.load(input: file, outputScale: outputScale, maxPixels: files.limits.maxSourcePixels,
                                                 scope: files.root.scope).source
            let hints = source.hints
            let relative = file
            // The page tells nine-patches by their padding box, compiled or not.
            var kind = SourceKind.named(file)
            if kind == .compiledNinePatch || (kind == .png && hints.ninePatch != nil) { kind = .ninePatch }
            let scale = try hints.scale ?? Scale.source(of: source.file, option: nil)
            func segments(_ list: [Segment]) -> [[Int]] { list.map { [$0.start, $0.end, $0.scalable ? 1 : 0] } }
            return .success(Info(
                path: relative, kind: kind, image: source.file, width: source.size.width, height: source.size.height, scale: scale,
                latticeOwner: hints.lattice == nil ? nil : (hints.latticeOwner == .markers ? "markers" : "cap-insets"),
                latticeX: hints.lattice.map { segments($0.x) }, latticeY: hints.lattice.map { segments($0.y) },
                padding: hints.ninePatch?.padding, optical: hints.ninePatch?.optical,
                defaultMode: hints.defaultMode?.rawValue,
                guess: hints.lattice != nil ? nil : {
                    let guess = CapGuess.guess(source.image, scale: scale)
                    let i = guess.insets
                    return Guess(insets: [i.top, i.left, i.bottom, i.right], modeX: guess.modes.x.rawValue, modeY: guess.modes.y.rawValue)
                }()))
        } catch {
            return .failure(Refusal(error, file: nil, root: files.root))
        }
    }
}
