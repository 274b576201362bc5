import Foundation
import Testing
@testable import GlsliceKit

/// Xcode asset catalog image sets (docs/RENDERING.md §7).
@Suite struct ImageSetTests {
    /// Writes an image set of grey rows (one variant per scale) with `resizing` JSON.
    func makeSet(_ variants: [(scale: Int, values: [UInt8], resizing: String?)]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-\(UUID().uuidString).imageset")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var entries: [String] = []
        for variant in variants {
            let name = "v\(variant.scale).png"
            try PNGEncoder.write(greyRow(variant.values), to: .file(folder.appendingPathComponent(name).path))
            entries.append(#"{"filename": "\#(name)", "scale": "\#(variant.scale)x""# + (variant.resizing.map { #", "resizing": \#($0)"# } ?? "") + "}")
        }
        try #"{"images": [\#(entries.joined(separator: ", ")), {"idiom": "universal", "scale": "3x"}]}"#
            .write(to: folder.appendingPathComponent("Contents.json"), atomically: true, encoding: .utf8)
        return folder
    }

    func render(_ path: String, _ options: RenderRequest) throws -> PremultipliedImage {
        let source = try SourceResolver.resolve(path: path, outputScale: options.outputScale) {
            try SourceImage.load(path: $0, maxPixels: 1 << 20)
        }
        return try Backend.cpu.image(PlanBuilder.plan(options, source: source), source: source.image)
    }

    @Test func centreWidthDropsThePixelsPastIt() throws {
        // Caps of 2 px, a 1-px centre: pixels 40 and 50 lie past the centre and are never drawn.
        let set = try makeSet([(1, [10, 20, 30, 40, 50, 60, 70],
            #"{"mode": "3-part-horizontal", "center": {"mode": "stretch", "width": 1}, "cap-insets": {"left": 2, "right": 2, "top": 5}}"#)])
        defer { try? FileManager.default.removeItem(at: set) }
        let out = try render(set.path, RenderRequest(size: .pixels(PixelSize(width: 9, height: 1))))
        #expect(out.rgba.pixels == [10, 20, 30, 30, 30, 30, 30, 60, 70].flatMap { [$0, $0, $0, 255] })
    }

    @Test func variantForTheOutputScale() throws {
        let set = try makeSet([(1, [1], nil), (3, [3, 3, 3], nil)])
        defer { try? FileManager.default.removeItem(at: set) }
        let parsed = try ImageSet(path: set.path)
        #expect(parsed.variants.count == 2) // the slot without a file is skipped
        #expect(parsed.variant(for: 1).scale == 1)
        #expect(parsed.variant(for: 2).scale == 3)   // the next larger one, scaled down
        #expect(parsed.variant(for: 4).scale == 3)   // none larger: the largest
        // Drawn at @2x from the 3x variant: 2×1 points are 4×2 px, every one the 3x variant's grey 3.
        let out = try render(set.path, RenderRequest(size: .points(width: 2, height: 1), outputScale: 2))
        #expect(out.width == 4 && out.height == 2)
        #expect(out.rgba.pixels == (0..<8).flatMap { _ in [3, 3, 3, 255] as [UInt8] })
    }

    @Test func centreModeTileComesFromTheCatalog() throws {
        let set = try makeSet([(1, [10, 20, 30, 40, 50],
            #"{"mode": "9-part", "center": {"mode": "tile"}, "cap-insets": {"left": 1, "right": 1}}"#)])
        defer { try? FileManager.default.removeItem(at: set) }
        let out = try render(set.path, RenderRequest(size: .pixels(PixelSize(width: 8, height: 1))))
        #expect(out.rgba.pixels == [10, 20, 30, 40, 20, 30, 40, 50].flatMap { [$0, $0, $0, 255] })
    }

    @Test func fixtureMatchesTheLoosePNGWithInsets() throws {
        let set = fixtures.appendingPathComponent("button.imageset").path
        let loose = fixtures.appendingPathComponent("button@2x.png").path
        let fromSet = try render(set, RenderRequest(size: .points(width: 120, height: 44), outputScale: 2))
        // The catalog's centre mode is stretch; the whole 2-px centre is kept at 2x.
        let fromPNG = try render(loose, RenderRequest(size: .points(width: 120, height: 44),
                                                      insets: Insets(top: 14, left: 12, bottom: 14, right: 12),
                                                      modes: PerAxis(both: .stretch)))
        #expect(fromSet.width == 240 && fromSet == fromPNG)
    }

    @Test func badCatalogs() throws {
        let set = try makeSet([(1, [1, 2, 3], #"{"mode": "12-part"}"#)])
        defer { try? FileManager.default.removeItem(at: set) }
        #expect(throws: GlsliceError.self) { try ImageSet(path: set.path) }
        #expect(throws: GlsliceError.self) { try ImageSet(path: "/nonexistent.imageset") }
        let wide = try makeSet([(1, [1, 2, 3], #"{"mode": "9-part", "center": {"width": 5}, "cap-insets": {"left": 1, "right": 1}}"#)])
        defer { try? FileManager.default.removeItem(at: wide) }
        #expect(throws: GlsliceError.self) { try render(wide.path, RenderRequest(size: .pixels(PixelSize(width: 5, height: 1)))) }
        #expect(throws: GlsliceError.self) {
            try render(fixtures.appendingPathComponent("button.imageset").path,
                       RenderRequest(size: .pixels(PixelSize(width: 50, height: 50)), insets: Insets(parsing: "1")))
        }
    }
}
