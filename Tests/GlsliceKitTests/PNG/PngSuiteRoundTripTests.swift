import Foundation
import Testing
@testable import GlsliceKit

/// Every valid PngSuite image through glslice's writer and back through
/// libpng. The input is checked first against pypng's digest (the decoder's
/// own test), and what must come back is the image as a render would hold it
/// (premultiplied, then straight again: the contract's rounding, not the
/// encoder's), so the encoder is compared with two decoders it is not.
@Suite struct PngSuiteRoundTripTests {
    @Test(arguments: PNGDecoderTests.expectations)
    func roundTripsThroughTheWriter(_ expected: PNGDecoderTests.Expectation) throws {
        let image = try PNGDecoder.decode(path: PNGDecoderTests.suite.appendingPathComponent(expected.name).path, maxPixels: 1 << 24)
        #expect(PNGDecoderTests().fnv1a64(image.rgba.pixels) == expected.digest)
        let premultiplied = image.premultiplied()
        let wanted = premultiplied.straight()
        for (compression, cuts) in [(Compression.default, SegmentedZlib.Cuts.standard),
                                    (.fast, SegmentedZlibTests.smallCuts), (.small, SegmentedZlibTests.smallCuts)] {
            let writer = try PNGEncoder(target: .memory, size: PixelSize(width: image.width, height: image.height),
                                       opaque: image.rgba.isOpaque, compression: compression, threads: 2, cuts: cuts)
            try premultiplied.rgba.pixels.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                try writer.write(premultipliedRows: base, count: image.height)
            }
            try writer.finish()
            let decoded = try PNGDecoder.decode(data: Data(writer.memoryData ?? []), maxPixels: 1 << 24)
            let same = decoded == wanted
            #expect(same, "\(expected.name) at \(compression)")
        }
    }
}
