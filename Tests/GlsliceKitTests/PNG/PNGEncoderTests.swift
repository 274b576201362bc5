import Foundation
import Testing
@testable import GlsliceKit

@Suite struct PNGEncoderTests {
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

    /// IHDR's bit depth and colour type are bytes 24 and 25 of a PNG
    /// (8 signature + 4 length + 4 "IHDR" + 4 width + 4 height).
    func header(_ path: String) throws -> (depth: UInt8, colourType: UInt8, data: Data) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return (data[24], data[25], data)
    }

    /// `count` distinct opaque colours, one per pixel, `width` to a row.
    func distinctColours(_ count: Int, width: Int, alpha: UInt8 = 255) -> StraightImage {
        let height = (count + width - 1) / width
        var pixels: [UInt8] = []
        for i in 0..<(width * height) {
            let c = min(i, count - 1) // pads the last row with the last colour
            pixels += [UInt8(c % 256), UInt8(c / 256), UInt8(255 - c % 256), alpha]
        }
        return StraightImage(RGBAImage(width: width, height: height, pixels: pixels))
    }

    /// At most 256 colours: indexed, at the smallest depth that holds them (PNG
    /// allows 1, 2, 4 and 8 bits per index), and the same pixels back.
    @Test(arguments: [(2, UInt8(1)), (3, 2), (4, 2), (5, 4), (16, 4), (17, 8), (256, 8)])
    func fewColoursAreWrittenIndexed(_ colours: Int, _ depth: UInt8) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = distinctColours(colours, width: 16)
        let path = folder.appendingPathComponent("indexed.png").path
        try PNGEncoder.write(image.premultiplied(), to: .file(path))
        let (bitDepth, colourType, data) = try header(path)
        #expect(colourType == 3)
        #expect(bitDepth == depth)
        #expect(data.range(of: Data("tRNS".utf8)) == nil) // every entry opaque
        #expect(try PNGDecoder.decode(path: path, maxPixels: 10_000) == image)
    }

    /// Translucent entries get a tRNS chunk; its length is the index of the
    /// last translucent entry + 1 (entries in first-seen order: opaque red,
    /// clear, half-transparent white, opaque blue → 3 alphas).
    @Test func translucentEntriesAreKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Channels 0 or 255 at alpha 128 survive premultiply → unpremultiply exactly.
        let image = StraightImage(RGBAImage(width: 4, height: 1, pixels: [
            255, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 128, 0, 0, 255, 255,
        ]))
        let path = folder.appendingPathComponent("t.png").path
        try PNGEncoder.write(image.premultiplied(), to: .file(path))
        let (depth, colourType, data) = try header(path)
        #expect(colourType == 3)
        #expect(depth == 2)
        let tRNS = try #require(data.range(of: Data("tRNS".utf8)))
        let length = data[(tRNS.lowerBound - 4)..<tRNS.lowerBound].reduce(0) { $0 << 8 | Int($1) }
        #expect(length == 3)
        #expect(Array(data[tRNS.upperBound..<(tRNS.upperBound + 3)]) == [255, 0, 128])
        #expect(try PNGDecoder.decode(path: path, maxPixels: 100) == image)
    }

    /// A 257th colour switches to RGB (opaque) or RGBA, and the rows already
    /// held as indices are written first: the 257th colour is in the last of
    /// 17 rows, sent in one call, in bands of 5 rows, or one row at a time.
    @Test(arguments: [1, 5, 17])
    func the257thColourFallsBackToTrueColour(band: Int) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (alpha, expected) in [(UInt8(255), UInt8(2)), (UInt8(128), UInt8(6))] {
            var image = distinctColours(257, width: 16)
            if alpha != 255 {
                image.rgba.pixels[3] = 128 // (0, 0, 255) at alpha 128: exact through premultiplying
            }
            let premultiplied = image.premultiplied()
            let path = folder.appendingPathComponent("wide-\(alpha).png").path
            let writer = try PNGEncoder(target: .file(path), size: PixelSize(width: 16, height: 17),
                                       opaque: alpha == 255, compression: .default)
            try premultiplied.rgba.pixels.withUnsafeBufferPointer { buffer in
                var y = 0
                while y < 17 {
                    let count = min(band, 17 - y)
                    try writer.write(premultipliedRows: buffer.baseAddress! + y * 16 * 4, count: count)
                    y += count
                }
            }
            try writer.finish()
            let (depth, colourType, _) = try header(path)
            #expect(colourType == expected)
            #expect(depth == 8)
            #expect(try PNGDecoder.decode(path: path, maxPixels: 1_000) == image)
        }
    }

    /// An existing output is replaced whole, and nothing else is left in the folder.
    @Test func replacesAnExistingFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.png").path
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: path))
        let image = distinctColours(3, width: 3)
        try PNGEncoder.write(image.premultiplied(), to: .file(path))
        #expect(try PNGDecoder.decode(path: path, maxPixels: 100) == image)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
    }

    /// The output's name does not exist until `finish()`.
    @Test func outputAppearsOnlyWhenFinished() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("late.png").path
        let writer = try PNGEncoder(target: .file(path), size: PixelSize(width: 2, height: 2), opaque: false,
                                   compression: .default)
        let rows = [UInt8](repeating: 100, count: 16)
        try rows.withUnsafeBufferPointer { try writer.write(premultipliedRows: $0.baseAddress!, count: 1) }
        #expect(!FileManager.default.fileExists(atPath: path))
        try rows.withUnsafeBufferPointer { try writer.write(premultipliedRows: $0.baseAddress!, count: 1) }
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["late.png"])
    }

    /// A caller's descriptor is written to and left open; the byte count is the file's size.
    @Test func writesToACallersDescriptor() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fd.png").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        let image = distinctColours(300, width: 20)
        let bytes = try PNGEncoder.write(image.premultiplied(), to: .descriptor(fd))
        #expect(fcntl(fd, F_GETFD) != -1) // still open
        close(fd)
        #expect(bytes == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        #expect(try PNGDecoder.decode(path: path, maxPixels: 1_000) == image)
    }

    @Test func unfinishedWriterLeavesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("partial.png").path
        do {
            let writer = try PNGEncoder(target: .file(path), size: PixelSize(width: 4, height: 4), opaque: false,
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
