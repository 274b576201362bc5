import CPNG
import Foundation
import Testing
@testable import GlsliceKit

/// The segmented image-data writer: pieces compressed on any number of threads
/// give the same bytes, copy runs and zlib pieces decode (libpng, zlib) to the
/// pixels drawn here from a seeded generator, never from the encoder.
@Suite struct SegmentedZlibTests {
    /// A random straight image whose rows repeat and whose runs are constant,
    /// as nine-slice outputs are: each row is new, a copy of the row above, or
    /// a copy of a row `period` above; new rows are a few flat runs or noise.
    static func image(width: Int, height: Int, colours: Int, opaque: Bool,
                      using rng: inout SeededGenerator) -> StraightImage {
        let palette: [[UInt8]] = (0..<colours).map { _ in
            let a: UInt8 = opaque ? 255 : [0, 255, UInt8.random(in: 1...254, using: &rng)].randomElement(using: &rng)!
            // Straight colours that survive premultiplying: alpha 0 pixels are black.
            return a == 0 ? [0, 0, 0, 0] : [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng),
                                           UInt8.random(in: 0...255, using: &rng), a]
        }
        let period = Int.random(in: 2...9, using: &rng)
        var rows: [[UInt8]] = []
        for y in 0..<height {
            let choice = Int.random(in: 0..<10, using: &rng)
            if y > 0 && choice < 5 {
                rows.append(rows[y - 1])
            } else if y >= period && choice < 7 {
                rows.append(rows[y - period])
            } else {
                var row: [UInt8] = []
                while row.count < width * 4 {
                    let run = Bool.random(using: &rng) ? Int.random(in: 1...4, using: &rng) : Int.random(in: 1...width, using: &rng)
                    let colour = palette.randomElement(using: &rng)!
                    for _ in 0..<run where row.count < width * 4 { row += colour }
                }
                rows.append(row)
            }
        }
        return StraightImage(RGBAImage(width: width, height: height, pixels: rows.flatMap { $0 }))
    }

    /// Alpha is 0 or 255, or the colour survives premultiplying: decoded pixels equal the input.
    static func lossless(_ image: StraightImage) -> Bool {
        image.premultiplied().straight() == image
    }

    /// Cut small, so even these small images have several pieces.
    static let smallCuts = SegmentedZlib.Cuts(pieceBytes: 2048)

    func encode(_ image: StraightImage, threads: Int, compression: Compression = .default,
                cuts: SegmentedZlib.Cuts = smallCuts) throws -> [UInt8] {
        let writer = try PNGEncoder(target: .memory, size: PixelSize(width: image.width, height: image.height),
                                   opaque: image.rgba.isOpaque, compression: compression, threads: threads, cuts: cuts)
        let premultiplied = image.premultiplied()
        try premultiplied.rgba.pixels.withUnsafeBufferPointer { buffer in
            try writer.write(premultipliedRows: buffer.baseAddress!, count: image.height)
        }
        try writer.finish()
        return writer.memoryData ?? []
    }

    @Test func randomImagesDecodeToTheirPixelsWithTheSameBytesOnAnyThreadCount() throws {
        var rng = SeededGenerator(seed: 2111)
        let cases = Int(ProcessInfo.processInfo.environment["GLSLICE_ENCODER_CASES"] ?? "") ?? 300
        for index in 0..<cases {
            let width = Int.random(in: 1...300, using: &rng), height = Int.random(in: 1...120, using: &rng)
            let colours = [1, 2, 3, 5, 17, 200, 300].randomElement(using: &rng)!
            let image = Self.image(width: width, height: height, colours: colours, opaque: Bool.random(using: &rng), using: &rng)
            // What a render holds: premultiplied, so a translucent colour comes back as the contract rounds it.
            let wanted = Self.lossless(image) ? image : image.premultiplied().straight()
            let compression = Compression.allCases.randomElement(using: &rng)!
            let one = try encode(image, threads: 1, compression: compression)
            let decoded = try PNGDecoder.decode(data: Data(one), maxPixels: 1 << 24) == wanted
            #expect(decoded, "case \(index): \(width)x\(height), \(colours) colours")
            let same = try encode(image, threads: 3, compression: compression) == one
            #expect(same, "case \(index)")
            let standard = try PNGDecoder.decode(data: Data(encode(image, threads: 1, compression: compression, cuts: .standard)),
                                                 maxPixels: 1 << 24) == wanted
            #expect(standard, "case \(index), standard cuts")
        }
    }

    /// Large enough for several 1 MiB pieces: 1,500 × 2,000 opaque RGB in 300
    /// colours is 2,000 rows of 4,501 bytes (9,002,000), cut after every 233
    /// rows (the first row count past 1 MiB), so 8 pieces end in a sync flush
    /// before the last one (by hand: 2,000 / 233 is 8.6).
    @Test func aLargeImageIsTheSameBytesWithOneTwoAndSixteenThreads() throws {
        var rng = SeededGenerator(seed: 7)
        let image = Self.image(width: 1500, height: 2000, colours: 300, opaque: true, using: &rng)
        let one = try encode(image, threads: 1, cuts: .standard)
        let two = try encode(image, threads: 2, cuts: .standard) == one
        let sixteen = try encode(image, threads: 16, cuts: .standard) == one
        #expect(two && sixteen)
        let decoded = try PNGDecoder.decode(data: Data(one), maxPixels: 1 << 24) == image
        #expect(decoded)
        // A sync flush's empty stored block (00 00 FF FF) after each piece but the last; the same
        // four bytes may turn up by chance in the compressed data too, so at least 8.
        let flushes = (0..<(one.count - 3)).filter { one[$0] == 0 && one[$0 + 1] == 0 && one[$0 + 2] == 0xFF && one[$0 + 3] == 0xFF }
        #expect(flushes.count >= 8, "\(flushes.count) sync flushes")
    }
}

/// The CPU time of the threads that compress pieces is counted (`helperCPU`): on the caller's
/// thread there is none to add, on helpers it is what they spent, which the encode stage adds.
@Suite struct SegmentedZlibHelperTimeTests {
    static func compress(threads: Int) throws -> (stream: [UInt8], helperCPU: Duration) {
        var rng = SeededGenerator(seed: 7171)
        let rowBytes = 4097, rows = 64
        let bytes = (0..<rowBytes * rows).map { _ in UInt8.random(in: 0...255, using: &rng) } // noise: zlib works hard
        var out: [UInt8] = []
        let zlib = SegmentedZlib(coder: .zlib(level: 6), totalBytes: bytes.count, rowBytes: rowBytes, threads: threads,
                                 cuts: SegmentedZlib.Cuts(pieceBytes: 8 * rowBytes)) { out += $0 }
        for r in 0..<rows {
            try zlib.appendRows(1) { _, row in bytes.withUnsafeBufferPointer { row.update(from: $0.baseAddress! + r * rowBytes, count: rowBytes) } }
        }
        try zlib.finish()
        return (out, zlib.helperCPU)
    }

    @Test func helpersTimeIsCountedAndTheCallersIsNot() throws {
        let alone = try Self.compress(threads: 1), helped = try Self.compress(threads: 4)
        #expect(alone.stream == helped.stream)
        #expect(alone.helperCPU == .zero)
        #expect(helped.helperCPU > .zero, "eight pieces of noise compressed on helpers took no CPU time")
    }
}
