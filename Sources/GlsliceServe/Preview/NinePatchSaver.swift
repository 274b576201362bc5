import Foundation
import GlsliceKit

/// The preview page's "Save as .9.png": a source's artwork with the stretch
/// runs the page edited written as a raw nine-patch's markers, under the
/// root only, through the same containment as every read (a name that
/// leaves the root, or a folder on the way that links out, is refused).
/// Served only on a loopback server without a key (`ServeRoutes`).
struct NinePatchSaver: PreviewSaver {
    let files: PreviewFiles

    /// What the page sends: the source, the name to write, and the stretch
    /// runs along x and y as `[start, end]` pixels of the artwork.
    struct Request: Decodable, Sendable {
        var source: String
        var output: String
        var x: [[Int]]
        var y: [[Int]]
    }

    struct Saved: Encodable {
        var saved: String
        var bytes: Int
    }

    func write(_ request: Request) -> Result<Saved, Refusal> {
        writing(source: request.source) { file in
            guard let output = files.root.file(forEscaped: Substring(request.output)), output.lowercased().hasSuffix(".9.png") else {
                return .failure(.notANinePatchName)
            }
            if let refusal = files.root.refusalToWrite(output) { return .failure(refusal) }
            let source = try ResolvedSource.load(input: file, outputScale: nil, maxPixels: files.limits.maxSourcePixels,
                                                 scope: files.root.scope).source
            func runs(_ list: [[Int]], _ length: Int, _ axis: String) throws -> [Range<Int>] {
                guard list.count <= LatticeRuns.maxRunsPerAxis else {
                    throw UsageErrors.tooManyRuns(axis: axis, maximum: LatticeRuns.maxRunsPerAxis)
                }
                var previous = -1
                return try list.map { pair in
                    guard pair.count == 2, pair[0] > previous, pair[0] < pair[1], pair[1] <= length else {
                        throw UsageErrors.runsOutOfOrder(axis: axis, length: length)
                    }
                    previous = pair[1]
                    return pair[0]..<pair[1]
                }
            }
            let lattice = try Lattice(width: source.size.width, height: source.size.height,
                                      stretchX: runs(request.x, source.size.width, "x"),
                                      stretchY: runs(request.y, source.size.height, "y"))
            try lattice.checkRegions()
            // Explicit padding and optical bounds are kept; padding that followed the old
            // runs (or a plain PNG's, which has none) follows the new ones, as Android's would.
            var bounds = source.hints.ninePatch ?? NinePatchBounds(padding: .zero)
            if source.hints.ninePatch == nil || source.hints.lattice.map(NinePatchMarkers.impliedPadding) == bounds.padding {
                bounds.padding = NinePatchMarkers.impliedPadding(lattice)
            }
            let image = try NinePatchMarkers.bordered(source.image, lattice: lattice, bounds: bounds, file: output)
            let bytes = try PNGEncoder.write(image, to: .contained(output, beneath: files.root.scope), compression: .small)
            return .success(Saved(saved: output, bytes: bytes))
        }
    }
}
