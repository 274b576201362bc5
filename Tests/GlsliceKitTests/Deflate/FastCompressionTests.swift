import CPNG
import Foundation
import Testing
@testable import GlsliceKit

/// `--compression fast` (issue 42): the plan's repeats written as deflate
/// matches by `RepeatDeflater`. Every file must decode in libpng to the pixels
/// the CPU drew, with the same bytes for any thread count; the pieces are cut
/// small so their seams fall everywhere. (Pillow and pypng read the same
/// outputs in `make test-decoders`.)
@Suite struct FastCompressionTests {
    /// Cut small, so even small outputs have several pieces.
    static let smallCuts = SegmentedZlib.Cuts(pieceBytes: 1500)

    /// `plan` drawn on the CPU and written with `fast`, the map made from the plan.
    func encode(_ plan: Plan, source: PremultipliedImage, drawn: PremultipliedImage, threads: Int,
                map: RepeatMap? = nil, cuts: SegmentedZlib.Cuts = smallCuts) throws -> [UInt8] {
        let writer = try PNGEncoder(target: .memory, size: plan.size, opaque: drawn.rgba.isOpaque, compression: .fast,
                                    repeats: map ?? RepeatMap(plan: plan, source: source), threads: threads, cuts: cuts)
        try drawn.rgba.pixels.withUnsafeBufferPointer { buffer in
            try writer.write(premultipliedRows: buffer.baseAddress!, count: plan.size.height)
        }
        try writer.finish()
        return writer.memoryData ?? []
    }

    /// Decodes in libpng to what was drawn, with the same bytes on 1 and 3 threads.
    func check(_ plan: Plan, source: PremultipliedImage, _ label: String, map: RepeatMap? = nil) throws {
        let drawn = try Backend.cpu.image(plan, source: source)
        let one = try encode(plan, source: source, drawn: drawn, threads: 1, map: map)
        let decoded = try PNGDecoder.decode(data: Data(one), maxPixels: 1 << 28)
        #expect(decoded == drawn.straight(), "\(label): libpng does not read back the drawn pixels")
        let three = try encode(plan, source: source, drawn: drawn, threads: 3, map: map)
        #expect(three == one, "\(label): 3 threads wrote other bytes than 1")
    }

    /// `source` reduced to `colours` colours (so outputs are palette files of 1, 2, 4 and 8 bits).
    static func quantized(_ source: PremultipliedImage, colours: Int) -> PremultipliedImage {
        let straight = source.straight().rgba
        var pixels = straight.pixels
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let pick = (Int(pixels[i]) * 31 + Int(pixels[i + 1])) % colours
            pixels[i] = UInt8(pick * 37 % 256)
            pixels[i + 1] = UInt8(pick * 91 % 256)
            pixels[i + 2] = UInt8(pick * 53 % 256)
            pixels[i + 3] = pixels[i + 3] < 128 ? 0 : 255
        }
        return StraightImage(RGBAImage(width: straight.width, height: straight.height, pixels: pixels)).premultiplied()
    }

    /// Parity's random jobs (every mode per axis, lattices of 1 to 6 runs, both filters,
    /// `space` gaps, hollow centres): opaque, translucent and palette outputs.
    @Test func randomJobsDecodeToTheDrawnPixels() throws {
        let cases = Int(ProcessInfo.processInfo.environment["GLSLICE_ENCODER_CASES"] ?? "") ?? 400
        var palettes = 0
        for index in 0..<cases {
            var job = Parity.job(index: index, seed: 7042)
            // Odd jobs have no cells marked one-colour from their source, so the source can change.
            if index % 2 == 1, index % 3 != 0 {
                job.source = Self.quantized(job.source, colours: [1, 2, 3, 5, 17, 200][index % 6])
                palettes += 1
            }
            try check(job.plan, source: job.source, "\(job)")
        }
        #expect(palettes > cases / 4)
    }

    /// `small` keeps, piece by piece, the smaller of zlib 9 and glslice's deflate: never larger than
    /// `default`, and libpng reads back the drawn pixels (pieces of 2 KiB, so the two mix).
    @Test func smallIsNeverLargerThanDefault() throws {
        var smaller = 0
        for index in 0..<120 {
            var job = Parity.job(index: index, seed: 7043)
            if index % 2 == 1 { job.source = Self.quantized(job.source, colours: [2, 5, 17, 200][index % 4]) }
            let drawn = try Backend.cpu.image(job.plan, source: job.source), map = RepeatMap(plan: job.plan, source: job.source)
            var files: [Compression: [UInt8]] = [:]
            for compression in [Compression.small, .default] {
                let writer = try PNGEncoder(target: .memory, size: job.plan.size, opaque: drawn.rgba.isOpaque, compression: compression,
                                            repeats: map, threads: 1, cuts: SegmentedZlibTests.smallCuts)
                try drawn.rgba.pixels.withUnsafeBufferPointer { try writer.write(premultipliedRows: $0.baseAddress!, count: drawn.height) }
                try writer.finish()
                files[compression] = writer.memoryData ?? []
            }
            let small = files[.small] ?? [], plain = files[.default] ?? []
            #expect(small.count <= plain.count, "\(job): small \(small.count) bytes, default \(plain.count)")
            if small.count < plain.count { smaller += 1 }
            #expect(try PNGDecoder.decode(data: Data(small), maxPixels: 1 << 28) == drawn.straight(), "\(job)")
        }
        #expect(smaller > 20)
    }

    /// Palette indexing copies a tiled span's indices from a period back only where the pixels
    /// do repeat: a map whose period is wrong (here for half the rows) still gives the drawn
    /// pixels under zlib, which reads the indices and not the map.
    @Test func paletteIndicesFollowThePixelsNotTheMap() throws {
        let width = 40, height = 6
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                // Past x 4 the columns repeat every 3 in even rows; odd rows count on across.
                let value = UInt8(truncatingIfNeeded: (y % 2 == 0 && x >= 4 ? 4 + (x - 4) % 3 : x) * 6)
                pixels.replaceSubrange((y * width + x) * 4..<((y * width + x) * 4 + 3), with: [value, 255 - value, value / 2])
            }
        }
        let image = PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels))
        let map = RepeatMap(rowKeys: nil, columnPeriods: [(0..<4, 4), (4..<40, 3)])
        let file = try PNGEncoder.memoryFile(image, compression: .zlib, repeats: map)
        #expect(file[25] == 3, "a palette file")
        #expect(try PNGDecoder.decode(data: Data(file), maxPixels: 1 << 20) == image.straight())
    }

    /// Shapes at the limits the issue names: widths 1 to 16,383, heights to 20,000,
    /// each mode on each axis, 1 to 3 lattice runs, palette and RGBA sources.
    @Test(arguments: [
        PixelSize(width: 16383, height: 3), PixelSize(width: 1, height: 20000), PixelSize(width: 3, height: 20000),
        PixelSize(width: 16383, height: 1), PixelSize(width: 257, height: 301),
    ])
    func extremeShapesDecodeToTheDrawnPixels(size: PixelSize) throws {
        for (plan, source, label) in try Self.extremePlans(size) { try check(plan, source: source, label) }
    }

    /// Plans of `size` with 1, 2 and 3 lattice runs, five mode pairs covering every mode on each
    /// axis, from palette, RGBA and 16-colour sources.
    static func extremePlans(_ size: PixelSize) throws -> [(Plan, PremultipliedImage, String)] {
        var rng = SeededGenerator(seed: UInt64(size.width * 31 + size.height))
        let modes: [ResizeMode] = [.stretch, .tile, .round, .space, .repeat]
        var plans: [(Plan, PremultipliedImage, String)] = []
        for (i, runs) in [1, 2, 3].enumerated() {
            let noise = Parity.randomImage(width: 12, height: 12, rng: &rng)
            let source = i == 1 ? noise : Self.quantized(noise, colours: [2, 0, 16][i])
            // `runs` scalable runs between fixed ones, along both axes.
            let cuts = runs == 1 ? [0, 3, 9, 12] : runs == 2 ? [0, 2, 4, 6, 8, 12] : [0, 1, 3, 5, 7, 9, 11, 12]
            let segments = zip(cuts, cuts.dropFirst()).enumerated().map { Segment($1.0, $1.1, scalable: $0 % 2 == 1) }
            let lattice = try Lattice(width: 12, height: 12, x: segments, y: segments)
            for (x, y) in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)] {
                let plan = try PlanBuilder.plan(lattice: lattice, size: size, k: 1, modes: PerAxis(x: modes[x], y: modes[y]),
                                                filter: i == 2 ? .nearest : .linear, fillCenter: x != 3)
                plans.append((plan, source, "\(size) \(runs) runs, \(modes[x])/\(modes[y])"))
            }
        }
        return plans
    }

    /// Renderer 7 (issue 51): `default` is glslice's own deflate, the same bytes as `fast`
    /// (FLEVEL 0 in the zlib header, RFC 1950 §2.2), and `zlib` is zlib 6's stream (FLEVEL 2):
    /// after the header, byte for byte what zlib's `compress2` at level 6 writes for the same
    /// raw rows (the output is one piece: no cuts). All three decode in libpng to the drawn pixels.
    @Test func defaultIsGlslicesDeflateAndZlibIsZlib6() throws {
        let job = Parity.job(index: 12, seed: 51)
        let drawn = try Backend.cpu.image(job.plan, source: job.source)
        let map = RepeatMap(plan: job.plan, source: job.source)
        func file(_ compression: Compression) throws -> [UInt8] {
            let writer = try PNGEncoder(target: .memory, size: job.plan.size, opaque: drawn.rgba.isOpaque, compression: compression,
                                        repeats: map, threads: 1)
            try drawn.rgba.pixels.withUnsafeBufferPointer { try writer.write(premultipliedRows: $0.baseAddress!, count: job.plan.size.height) }
            try writer.finish()
            return writer.memoryData ?? []
        }
        let glslices = try file(.default), zlibs = try file(.zlib)
        #expect(glslices == (try file(.fast)))
        for (bytes, level) in [(glslices, 0), (zlibs, 2)] {
            let decoded = try PNGDecoder.decode(data: Data(bytes), maxPixels: 1 << 28)
            #expect(decoded == drawn.straight())
            #expect(Self.imageData(bytes)[1] >> 6 == level)
        }
        // zlib 6's own stream for the rows glslice's `zlib` file holds (inflated from it).
        let data = Self.imageData(zlibs)
        var raw = [UInt8](repeating: 0, count: 64 << 20), rawLength = uLongf(raw.count)
        #expect(uncompress(&raw, &rawLength, data, uLong(data.count)) == Z_OK)
        var ours = [UInt8](repeating: 0, count: Int(compressBound(rawLength))), oursLength = uLongf(ours.count)
        #expect(compress2(&ours, &oursLength, raw, rawLength, 6) == Z_OK)
        // The same stream after the two-byte header, whose window size glslice shrinks as libpng does.
        #expect(Array(ours[2..<Int(oursLength)]) == Array(data[2...]), "the zlib file is zlib 6's stream")
    }

    /// The concatenated IDAT data of a PNG.
    static func imageData(_ png: [UInt8]) -> [UInt8] {
        var at = 8, data: [UInt8] = []
        while at + 8 <= png.count {
            let length = png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            if png[(at + 4)..<(at + 8)].elementsEqual("IDAT".utf8) { data += png[(at + 8)..<(at + 8 + length)] }
            at += 12 + length
        }
        return data
    }

    /// With nothing known (an image that has no plan, such as a contact sheet), `fast`
    /// still writes a stream libpng reads.
    @Test func noMapStillDecodes() throws {
        let job = Parity.job(index: 5, seed: 11)
        try check(job.plan, source: job.source, "\(job), no map", map: RepeatMap.none)
    }

    /// Worked by hand: four RGB rows of 177 px, A B A B, each [P0, C × 175, P4] after
    /// the filter byte (532 bytes), A's and B's colours all different. The map says
    /// the middle span (pixels 1-175) has period 1, and rows 2 and 3 are copies of
    /// rows 0 and 1 (two rows, 1,064 bytes, back).
    /// - Row 0: the filter byte and pixels 0-1 are literals (nothing earlier to
    ///   match); pixels 2-175 (522 bytes) are a match one pixel back, cut at 258;
    ///   pixel 176 is literals (3 bytes: under the matcher's 4). Row 1 likewise:
    ///   nothing of 4 bytes matches row 0.
    /// - Rows 2 and 3 are copies: their parts are matches 1,064 bytes back, except
    ///   the long periodic part, still one period back (3 costs no extra bits, 1,064
    ///   costs 9). The four rows (2,128 bytes) are one unit (issue 51), so row 3's first
    ///   part (7 bytes, short) continues row 2's last match, 1,064 back: m(3 + 7).
    /// - A match 1,064 back that meets the periodic part takes its first bytes up to
    ///   the end of its token (issue 51, `fillLength`): row 2's 7 take 251 (258), and
    ///   the period's 271 are m(258) + m(13); row 3's 3 + 7 take 248, and the period's
    ///   274 are m(258) + m(16). Before: m(7), the period's 522 in three, m(10), three again.
    @Test func theMapsRepeatsBecomeMatches() throws {
        let a: [UInt8] = [0, 1, 2, 3] + [UInt8](repeating: 0, count: 525).enumerated().map { [9, 8, 7][$0.offset % 3] } + [4, 5, 6]
        let b: [UInt8] = [0, 11, 12, 13] + [UInt8](repeating: 0, count: 525).enumerated().map { [19, 18, 17][$0.offset % 3] } + [14, 15, 16]
        let data = a + b + a + b
        let keys: [RepeatMap.RowKey] = [.init(high: 1, low: 1), .init(high: 2, low: 1), .init(high: 1, low: 1), .init(high: 2, low: 1)]
        let map = RepeatMap(rowKeys: { range in Array(keys[range]) }, columnPeriods: [(0..<1, 1), (1..<176, 1), (176..<177, 1)])
        let deflater = RepeatDeflater(map: map, width: 177, rowBytes: 532, bitsPerPixel: 24)
        let tokens = data.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: 4) }
        let l = DeflateToken.literal, m = DeflateToken.match
        let period = [m(258, 3), m(258, 3), m(6, 3)]
        #expect(a.count == 532 && b.count == 532)
        #expect(tokens == [l(0), l(1), l(2), l(3), l(9), l(8), l(7)] + period + [l(4), l(5), l(6)]
                    + [l(0), l(11), l(12), l(13), l(19), l(18), l(17)] + period + [l(14), l(15), l(16)]
                    + [m(258, 1064), m(258, 3), m(13, 3), m(258, 1064), m(258, 3), m(16, 3), m(3, 1064)])
        // Where the map is silent, the matcher finds rows equal to the one before, a match a row,
        // joined in the unit: row 0 is the filter byte and P0 as literals, C C C one pixel back, P4 as
        // literals (3 bytes); rows 1 and 2, a row back, one match of 32.
        let row: [UInt8] = [0, 1, 2, 3, 9, 8, 7, 9, 8, 7, 9, 8, 7, 4, 5, 6]
        let same = row + row + row
        let found = same.withUnsafeBufferPointer {
            RepeatDeflater(map: .none, width: 5, rowBytes: 16, bitsPerPixel: 24).tokens($0.baseAddress!, history: 0, firstRow: 0, rows: 3)
        }
        #expect(found == [l(0), l(1), l(2), l(3), l(9), l(8), l(7), m(6, 3), l(4), l(5), l(6), m(32, 16)], "\(found)")
        // And zlib inflates the coded stream to the rows.
        let raw = data.withUnsafeBufferPointer { deflater.deflate($0.baseAddress!, history: 0, firstRow: 0, rows: 4, last: true) }
        var inflated = [UInt8](repeating: 0, count: data.count)
        var length = uLong(data.count)
        let adler = adler32(1, data, uInt(data.count))
        let stream = [0x78, 0x01] + raw + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
        #expect(uncompress(&inflated, &length, stream, uLong(stream.count)) == Z_OK && inflated == data)
    }

    /// Worked by hand (issue 51): units of rows. 1,000-byte rows go six to a unit (6,000 of
    /// 6,144 bytes), never across a piece's start (every 8 rows here); a copy run (rows 3 and 4,
    /// equal rows one row back, no periodic part) is a unit of its own, and the GPU takes its
    /// rows one by one.
    @Test func rowsGoInUnitsOf6KiB() {
        let deflater = RepeatDeflater(map: .none, width: 999, rowBytes: 1000, bitsPerPixel: 8)
        #expect(deflater.units(backs: [Int32](repeating: 0, count: 20), pieceRows: 8) == [0..<6, 6..<8, 8..<14, 14..<16, 16..<20])
        var backs = [Int32](repeating: 0, count: 20)
        backs[3] = 1000
        backs[4] = 1000
        #expect(deflater.units(backs: backs, pieceRows: 8) == [0..<3, 3..<5, 5..<8, 8..<14, 14..<16, 16..<20])
        // The same through the map: rows 2, 3 and 4 equal, so 3 and 4 copy the row above.
        let keys = (0..<20).map { RepeatMap.RowKey(high: (2...4).contains($0) ? 2 : UInt64(10 + $0), low: 0) }
        let mapped = RepeatDeflater(map: RepeatMap(rowKeys: { range in Array(keys[range]) }, columnPeriods: []), width: 999,
                                    rowBytes: 1000, bitsPerPixel: 8)
        let gpu = mapped.invocations(firstRow: 0, rows: 20, history: 0, pieceRows: 8)
        #expect(gpu.copies.map(\.back) == backs)
        #expect(gpu.units == [0..<3, 3..<4, 4..<5, 5..<8, 8..<14, 14..<16, 16..<20])
    }

    /// Worked by hand (issue 51): a token whose bytes also repeat one pixel back is written
    /// that distance where it costs fewer extra bits. Two palette rows of 300 × index 7, the
    /// second a copy of the first (301 bytes back: 7 extra bits).
    /// - Row 0: the filter byte and the first 7 are literals; the rest a match one pixel back
    ///   (299 bytes: 258 + 41).
    /// - Row 1, a copy run: 258 bytes from its filter byte, 301 back (one pixel back, the filter
    ///   byte 0 would meet a 7); then 43 bytes of 7s, one pixel back (0 extra bits).
    @Test func aTokenThatRepeatsAPixelBackIsWrittenThatDistance() {
        let row: [UInt8] = [0] + [UInt8](repeating: 7, count: 300)
        let data = row + row
        let map = RepeatMap(rowKeys: { range in range.map { _ in RepeatMap.RowKey(high: 1, low: 1) } }, columnPeriods: [])
        let deflater = RepeatDeflater(map: map, width: 300, rowBytes: 301, bitsPerPixel: 8)
        let tokens = data.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: 2) }
        let l = DeflateToken.literal, m = DeflateToken.match
        #expect(tokens == [l(0), l(7), m(258, 1), m(41, 1), m(258, 301), m(43, 1)], "\(tokens)")
    }

    /// Worked by hand (issue 51): lazy evaluation, one step. One palette row, no map:
    /// 10 40 70 100 99 | 40 70 100 130 160 190 98 | 10 40 70 100 130 160 190 97 (no two of the
    /// words hashed share a slot). At the second 10 the hash finds 10 40 70 100 (4 bytes, 12
    /// back); a byte on, 40 70 100 130 160 190 (6 bytes, 8 back) is longer, so the 10 is a
    /// literal. Without the step: m(4, 12), then 4 literals.
    @Test func aLongerMatchAByteOnMakesThisByteALiteral() {
        let row: [UInt8] = [0, 10, 40, 70, 100, 99, 40, 70, 100, 130, 160, 190, 98, 10, 40, 70, 100, 130, 160, 190, 97]
        let deflater = RepeatDeflater(map: .none, width: 20, rowBytes: 21, bitsPerPixel: 8)
        let tokens = row.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: 1) }
        let l = DeflateToken.literal, m = DeflateToken.match
        // At 13, 10 40 70 100 (4 bytes, 12 back); at 14, 40 70 100 130 160 190 (6 bytes, 8 back):
        // 13 is a literal. Before, at 6, 40 70 100 is a 3-byte match 4 back (none longer a byte on).
        #expect(tokens == row[0..<6].map { l($0) } + [m(3, 4)] + row[9..<14].map { l($0) } + [m(6, 8), l(97)], "\(tokens)")
    }

    /// Worked by hand (session 7): a match walked back whole periods. Two palette rows of 40
    /// pixels, caps of 2 and a tile of period 8 between (parts: bytes 1-10 the matcher's, 11-38
    /// eight back, 39-40 the matcher's). Row 0's tile is 10 11 ... 17, row 1's the same shifted by
    /// four (14 ... 17 10 ... 13: no candidate a pixel or two either side of the row above). At
    /// row 1's first tile byte (41 + 3) the hash's older place, row 0's byte 23, matches 16 bytes
    /// (21 back) and ends at its part's end (39, the cap); walked back 2 periods to byte 7 (37
    /// back) the next word agrees too: 20. A byte on, the same gives 19, not longer. Then the
    /// planned part (8 back) and the cap.
    @Test func aMatchThatMeetsTheTilesEndIsWalkedBackWholePeriods() {
        let map = RepeatMap(rowKeys: nil, columnPeriods: [(0..<2, 2), (2..<38, 8), (38..<40, 2)])
        let row0 = [0, 200, 201] + (0..<36).map { UInt8(10 + $0 % 8) } + [202, 203]
        let row1 = [0, 204, 205] + (0..<36).map { UInt8(10 + ($0 + 4) % 8) } + [206, 207]
        let data = row0 + row1
        let deflater = RepeatDeflater(map: map, width: 40, rowBytes: 41, bitsPerPixel: 8)
        let tokens = data.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: 2) }
        let l = DeflateToken.literal, m = DeflateToken.match
        #expect(tokens == row0[0..<11].map { l($0) } + [m(28, 8), l(202), l(203), l(0), l(204), l(205), m(20, 37), m(16, 8), l(206), l(207)],
                "\(tokens.map { $0.isMatch ? "m\($0.length),\($0.distance)" : "l\($0.literal)" })")
    }

    /// Rows of noise: every byte its own (a linear congruential generator's top bytes), with no
    /// map, at 40 and at 240 rows of 301 bytes (12,040 and 72,240: one stored block, then two).
    static func noise(rows: Int, rowBytes: Int) -> [UInt8] {
        var state: UInt32 = 2_463_534_242
        return (0..<(rows * rowBytes)).map { i in
            state = state &* 1_664_525 &+ 1_013_904_223
            return i % rowBytes == 0 ? 0 : UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// Noise codes larger than it is, so a piece is stored (RFC 1951 §3.2.4, written out here by
    /// hand): a header byte (BFINAL, BTYPE 00), LEN and its complement, then the bytes, in blocks
    /// of at most 65,535.
    @Test func noiseIsStoredAsItIs() {
        let deflater = RepeatDeflater(map: .none, width: 100, rowBytes: 301, bitsPerPixel: 24)
        for rows in [40, 240] {
            let data = Self.noise(rows: rows, rowBytes: 301)
            let stream = data.withUnsafeBufferPointer { deflater.deflate($0.baseAddress!, history: 0, firstRow: 0, rows: rows, last: true) }
            var expected: [UInt8] = [], at = 0
            while at < data.count {
                let n = min(65535, data.count - at)
                expected += [at + n == data.count ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8 & 0xFF)]
                expected += data[at..<(at + n)]
                at += n
            }
            #expect(stream == expected, "\(rows) rows: \(stream.count) bytes against \(expected.count)")
        }
    }

    /// Sub-byte palette rows: a period of 3 pixels at 2 bits is 6 bits, so the byte
    /// period is 3 bytes (12 pixels), and only bytes wholly in the span and one byte
    /// period in are matched.
    @Test func aPeriodInPackedPixelsIsAWholeNumberOfBytes() throws {
        // 40 pixels at 2 bits: 10 bytes after the filter byte; the span is pixels 2..<38, period 3.
        let map = RepeatMap(rowKeys: nil, columnPeriods: [(0..<2, 2), (2..<38, 3), (38..<40, 2)])
        var row = [UInt8](repeating: 0, count: 11)
        for x in 0..<40 {
            let value: UInt8 = x < 2 ? 3 : x >= 38 ? 1 : UInt8((x - 2) % 3)
            row[1 + x / 4] |= value << UInt8(6 - 2 * (x % 4))
        }
        let deflater = RepeatDeflater(map: map, width: 40, rowBytes: 11, bitsPerPixel: 2)
        let tokens = row.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: 1) }
        // Pixels 14 on (2 + 12) are a byte period in: bytes 4-8 (pixels 16-35; byte 9 holds pixels 36-39,
        // past the span) repeat 3 bytes back. Bytes before are literals (the matcher finds nothing
        // of 4 bytes in them), and so is the last.
        let l = DeflateToken.literal
        #expect(tokens == [l(0), l(row[1]), l(row[2]), l(row[3]), l(row[4]), .match(length: 5, distance: 3), l(row[10])])
    }
}
