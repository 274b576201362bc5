import Foundation
import Testing
@testable import GlsliceKit

/// `small`'s colour-type reduction (issue 71): an all-grey palette written as grey (opaque, at the
/// fewest bits that hold its levels) or grey and alpha. Levels are worked out by hand from PNG's
/// sample scaling (a level at d bits is level × 255 / (2^d − 1)); pixels are read back by libpng.
@Suite struct GreyReductionTests {
    /// RGBA palette bytes from (grey, alpha) entries.
    func palette(_ entries: [(UInt8, UInt8)]) -> [UInt8] { entries.flatMap { [$0.0, $0.0, $0.0, $0.1] } }

    @Test func theFewestBitsThatHoldEveryLevel() throws {
        // 0 and 255: 1 bit (0, 1). 85 = 1 × 85: 2 bits. 17 × 3 = 51: 4 bits. 10: only 8 bits.
        let one = try #require(GreyReduction(palette: palette([(0, 255), (255, 255)])))
        #expect((one.channels, one.depth, one.levels) == (1, 1, [0, 1]))
        let two = try #require(GreyReduction(palette: palette([(255, 255), (85, 255), (0, 255)])))
        #expect((two.channels, two.depth, two.levels) == (1, 2, [3, 1, 0]))
        let four = try #require(GreyReduction(palette: palette([(51, 255), (255, 255)])))
        #expect((four.channels, four.depth, four.levels) == (1, 4, [3, 15]))
        let eight = try #require(GreyReduction(palette: palette([(10, 255), (0, 255)])))
        #expect((eight.channels, eight.depth, eight.levels) == (1, 8, [10, 0]))
    }

    @Test func aTranslucentEntryMakesGreyAndAlphaAndAColourNone() throws {
        let translucent = try #require(GreyReduction(palette: palette([(0, 0), (200, 128)])))
        #expect((translucent.channels, translucent.depth) == (2, 8))
        #expect(translucent.rows([1, 0, 1]) == [200, 128, 0, 0, 200, 128])
        #expect(GreyReduction(palette: [0, 0, 0, 255, 10, 11, 10, 255]) == nil)
    }

    /// The colour type a PNG's IHDR says (byte 25), its bit depth (24), and whether it has a PLTE.
    func header(_ png: Data) -> (colour: UInt8, depth: UInt8, palette: Bool) {
        let bytes = [UInt8](png)
        return (bytes[25], bytes[24], png.range(of: Data("PLTE".utf8)) != nil)
    }

    /// A grey image of 200 levels with soft edges (alpha 0, 128, 255): its PLTE and tRNS (about
    /// 800 bytes) outweigh its data, so `small` writes grey and alpha, no PLTE, and libpng reads
    /// back the pixels `default` (indexed) keeps.
    @Test func smallWritesAGreyTranslucentImageAsGreyAndAlpha() throws {
        let width = 50, height = 20
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let edge = x < 4 || y < 4 || x >= width - 4 || y >= height - 4
                let grey = UInt8((x * 4 + y / 4) % 200)
                pixels += edge ? (x % 2 == 0 ? [0, 0, 0, 0] : [grey, grey, grey, 128]) : [grey, grey, grey, 255]
            }
        }
        let image = PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels))
        let small = try PNGEncoder.encode(image, compression: .small), plain = try PNGEncoder.encode(image, compression: .default)
        #expect(header(plain).colour == 3)
        #expect(header(small) == (4, 8, false))
        #expect(small.count < plain.count, "small \(small.count), default \(plain.count)")
        let expected = try PNGDecoder.decode(data: plain, maxPixels: 1 << 20).rgba.pixels
        #expect(try PNGDecoder.decode(data: small, maxPixels: 1 << 20).rgba.pixels == expected)
    }

    /// An opaque black-and-white checkerboard: 1-bit grey, no PLTE, the same pixels.
    @Test func smallWritesBlackAndWhiteAsOneBitGrey() throws {
        let width = 33, height = 9
        let pixels = (0..<(width * height)).flatMap { k -> [UInt8] in (k % width + k / width) % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        let small = try PNGEncoder.encode(PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels)), compression: .small)
        #expect(header(small) == (0, 1, false))
        #expect(try PNGDecoder.decode(data: small, maxPixels: 1 << 20).rgba.pixels == pixels)
    }
}
