import Foundation
import Testing
@testable import GlsliceKit

/// `inspect`, `optimize`, `preview` and `compare` as a user runs them.
@Suite struct AssetCommandTests {
    @Test(arguments: ["inspect", "optimize", "preview", "compare"])
    func helpHasAnExample(_ command: String) throws {
        let result = try glslice([command, "--help"])
        #expect(result.status == 0)
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("Examples") && text.contains("glslice \(command) "), "\(text)")
    }

    @Test func inspectJSONOnTheCommandLine() throws {
        let result = try glslice(["inspect", fixtures.appendingPathComponent("texture.png").path, "--insets", "6,6,6,6", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let bands = try #require(object["bands"] as? [[String: Any]])
        // 16 brick columns repeating every 8 (see InspectionTests for the reasoning).
        #expect(bands.first?["content"] as? String == "periodic" && bands.first?["period"] as? Int == 8)
        let text = try glslice(["inspect", fixtures.appendingPathComponent("bubble.9.png").path])
        #expect(String(decoding: text.stdout, as: UTF8.self).contains("padding: top 4, left 4, bottom 8, right 4 px"))
    }

    @Test func compareExitsByTheTolerance() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two 2x1 images written here: levels differ by 0 and by 3.
        let a = folder.appendingPathComponent("a.png").path, b = folder.appendingPathComponent("b.png").path
        try PNGEncoder.write(PremultipliedImage(RGBAImage(width: 2, height: 1, pixels: [10, 10, 10, 255, 50, 50, 50, 255])), to: .file(a))
        try PNGEncoder.write(PremultipliedImage(RGBAImage(width: 2, height: 1, pixels: [10, 10, 10, 255, 53, 50, 50, 255])), to: .file(b))
        let same = try glslice(["compare", a, a])
        #expect(same.status == 0)
        let over = try glslice(["compare", a, b, "--tolerance", "2", "--diff", folder.appendingPathComponent("heat.png").path])
        #expect(over.status == 1)
        let line = String(decoding: over.stdout, as: UTF8.self)
        #expect(line.contains("max difference 3, mean 1.500, 1 pixels over the tolerance of 2"), "\(line)")
        // Heat map: the equal pixel dark grey, the other red (the largest difference).
        let heat = try PNGDecoder.decode(path: folder.appendingPathComponent("heat.png").path, maxPixels: 10)
        #expect(heat.rgba[0, 0] == [40, 40, 40, 255] && heat.rgba[1, 0] == [255, 0, 0, 255])
        #expect(try glslice(["compare", a, b, "--tolerance", "3"]).status == 0)
        let sizes = try glslice(["compare", a, fixtures.appendingPathComponent("panel.png").path])
        #expect(sizes.status == 65)
        #expect(sizes.stderr.contains("is 2x1 px but") && sizes.stderr.contains("is 17x17 px"), "\(sizes.stderr)")
    }

    @Test func optimizeAndPreviewWriteTheirFiles() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("b.9.png").path
        let optimize = try glslice(["optimize", fixtures.appendingPathComponent("bubble.9.png").path, "-o", out])
        #expect(optimize.status == 0, "\(optimize.stderr)")
        #expect(String(decoding: optimize.stdout, as: UTF8.self).contains("renders the same in: stretch, tile, auto, repeat, round"))
        let sheet = folder.appendingPathComponent("sheet.png").path
        let preview = try glslice(["preview", fixtures.appendingPathComponent("bubble.9.png").path,
                                   fixtures.appendingPathComponent("texture.png").path, "--insets", "6", "-o", sheet])
        #expect(preview.status == 0, "\(preview.stderr)")
        let image = try PNGDecoder.decode(path: sheet, maxPixels: 1 << 24)
        // The checkerboard's two greys are there (alpha shows through them).
        let pixels = Set(stride(from: 0, to: image.rgba.pixels.count, by: 4).map { Array(image.rgba.pixels[$0..<($0 + 4)]) })
        #expect(pixels.contains([204, 204, 204, 255]) && pixels.contains([153, 153, 153, 255]))
        // The legend along the top (issue 40): a swatch of each line colour the sheet draws,
        // magenta caps, cyan lattice lines, green padding, red optical bounds, in its first 24 rows (before it, those held only the title).
        let top = Set(stride(from: 0, to: image.width * 24 * 4, by: 4).map { Array(image.rgba.pixels[$0..<($0 + 4)]) })
        for colour: [UInt8] in [[200, 0, 200, 255], [0, 170, 200, 255], [0, 160, 60, 255], [220, 30, 30, 255]] {
            #expect(top.contains(colour), "no \(colour) in the legend")
        }
        // A .9.png output name for a plain PNG is refused, and nothing is written.
        let bad = try glslice(["optimize", fixtures.appendingPathComponent("panel.png").path, "-o", folder.appendingPathComponent("p.9.png").path])
        #expect(bad.status == 64 && bad.stderrLines.count == 1, "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("p.9.png").path))
    }
}
