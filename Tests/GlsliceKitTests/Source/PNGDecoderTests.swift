import Foundation
import Testing
@testable import GlsliceKit

/// PngSuite through libpng (docs/RENDERING.md §4). Expectations come from an independent
/// decoder (pypng, Scripts/make-pngsuite-expected.py) and from facts written
/// by hand, never from the code under test. The digests cover the 16-bit
/// scaling (round(v/257), not v >> 8) and the gAMA/cHRM/sRGB/iCCP images,
/// whose samples must pass through unchanged.
@Suite struct PNGDecoderTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var name: String
        var width: Int
        var height: Int
        var digest: UInt64
        var description: String { name }
    }

    static let suite = fixtures.appendingPathComponent("pngsuite")

    static let expectations: [Expectation] = {
        let url = fixtures.appendingPathComponent("pngsuite-expected.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let f = line.split(separator: "\t")
            guard f.count == 4, let w = Int(f[1]), let h = Int(f[2]), let d = UInt64(f[3], radix: 16) else { return nil }
            return Expectation(name: String(f[0]), width: w, height: h, digest: d)
        }
    }()

    static var corruptFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: suite.path)) ?? [])
            .filter { $0.hasPrefix("x") && $0.hasSuffix(".png") }.sorted()
    }

    func decode(_ name: String) throws -> StraightImage {
        try PNGDecoder.decode(path: Self.suite.appendingPathComponent(name).path, maxPixels: 1 << 24)
    }

    /// FNV-1a 64, the digest the generator script writes.
    func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    @Test func everyValidImageHasAnExpectation() {
        #expect(Self.expectations.count == 161)
        #expect(Self.corruptFiles.count == 14)
    }

    @Test(arguments: expectations)
    func decodesLikeAnIndependentDecoder(_ expected: Expectation) throws {
        let image = try decode(expected.name)
        #expect(image.width == expected.width && image.height == expected.height)
        #expect(fnv1a64(image.rgba.pixels) == expected.digest)
    }

    @Test(arguments: corruptFiles)
    func refusesCorruptFiles(_ name: String) {
        #expect(throws: GlsliceError.self) { try decode(name) }
        do {
            _ = try decode(name)
        } catch let error as GlsliceError {
            #expect(error.kind == .badInput)
            #expect(error.file?.hasSuffix(name) == true)
            #expect(!error.description.contains("\n"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    // MARK: spot checks written by hand

    @Test func oneBitGreyIsBlackAndWhite() throws {
        let image = try decode("basn0g01.png")
        let values = Set(stride(from: 0, to: image.rgba.pixels.count, by: 4).map { image.rgba.pixels[$0] })
        #expect(values == [0, 255])
        #expect(image.rgba.isOpaque)
        // The image is a diagonal pattern: the top-left pixel is white.
        #expect(image.rgba[0, 0] == [255, 255, 255, 255])
    }

    @Test func paletteColours() throws {
        // basn3p02: a 2-bit palette of exactly four colours, a quarter of the image each.
        let image = try decode("basn3p02.png")
        var counts: [[UInt8]: Int] = [:]
        for y in 0..<image.height { for x in 0..<image.width { counts[image.rgba[x, y], default: 0] += 1 } }
        #expect(counts.count == 4)
        #expect(counts.values.allSatisfy { $0 == 256 })
        #expect(counts.keys.allSatisfy { $0[3] == 255 })
    }

    @Test func transparentGreyFromTRNS() throws {
        // tbbn0g04: 4-bit grey with a tRNS grey value: some pixels fully transparent, the rest opaque.
        let image = try decode("tbbn0g04.png")
        let alphas = Set(stride(from: 3, to: image.rgba.pixels.count, by: 4).map { image.rgba.pixels[$0] })
        #expect(alphas == [0, 255])
    }

    @Test func interlacedMatchesNonInterlaced() throws {
        for (interlaced, plain) in [("basi2c08.png", "basn2c08.png"), ("basi6a16.png", "basn6a16.png"),
                                    ("basi3p04.png", "basn3p04.png"), ("basi0g01.png", "basn0g01.png")] {
            #expect(try decode(interlaced) == decode(plain), "\(interlaced)")
        }
    }

    @Test func pixelBudgetIsCheckedBeforeDecoding() {
        #expect(throws: GlsliceError.self) {
            try PNGDecoder.decode(path: Self.suite.appendingPathComponent("basn0g08.png").path, maxPixels: 32 * 32 - 1)
        }
    }

    @Test func notAPNG() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-not-a-png-\(getpid()).png")
        try Data("hello, world".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: GlsliceError(.badInput, file: url.path, "not a PNG file (bad signature)")) {
            try PNGDecoder.decode(path: url.path, maxPixels: 100)
        }
    }

    @Test func truncated() throws {
        let data = try Data(contentsOf: Self.suite.appendingPathComponent("basn2c08.png"))
        for cut in [20, 40, data.count / 2, data.count - 13] {
            #expect(throws: GlsliceError.self) { try PNGDecoder.decode(data: data.prefix(cut), maxPixels: 1 << 20) }
        }
    }
}
