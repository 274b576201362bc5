import Foundation
import Testing
@testable import GlsliceKit

@Suite struct PNGWriterTests {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(arguments: Compression.allCases)
    func roundTripsThroughLibpng(_ compression: Compression) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Straight pixels chosen so premultiply → unpremultiply is lossless (alpha 255 or 0 with black).
        let straight = StraightImage(RGBAImage(width: 3, height: 2, pixels: [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
            0, 0, 0, 0, 10, 20, 30, 255, 200, 100, 50, 255,
        ]))
        let path = folder.appendingPathComponent("out.png").path
        let bytes = try PNGEncoder.write(straight.premultiplied(), to: .file(path), compression: compression)
        #expect(bytes > 0)
        #expect(try PNGDecoder.decode(path: path, maxPixels: 100) == straight)
        // Only the output remains: the temporary file was renamed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
    }

    @Test func opaqueImagesAreWrittenAsRGB() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let opaque = StraightImage(RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 255])).premultiplied()
        let translucent = StraightImage(RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 254])).premultiplied()
        for (image, colourType) in [(opaque, UInt8(2)), (translucent, UInt8(6))] {
            let path = folder.appendingPathComponent("c\(colourType).png").path
            try PNGEncoder.write(image, to: .file(path))
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            // IHDR colour type is byte 25 of the file (8 signature + 8 chunk head + 9).
            #expect(data[25] == colourType)
        }
    }

    @Test func unfinishedWriterLeavesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("partial.png").path
        do {
            let writer = try PNGWriter(target: .file(path), size: PixelSize(width: 4, height: 4), opaque: false,
                                       compression: .default)
            let row = [UInt8](repeating: 200, count: 16)
            try row.withUnsafeBufferPointer { try writer.write(premultipliedRows: $0.baseAddress!, count: 1) }
            #expect(throws: GlsliceError.self) { try writer.finish() } // 1 of 4 rows
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func missingOutputFolder() {
        #expect(throws: GlsliceError.self) {
            try PNGEncoder.write(PremultipliedImage(RGBAImage(width: 1, height: 1)), to: .file("/nonexistent-glslice/x.png"))
        }
    }
}
