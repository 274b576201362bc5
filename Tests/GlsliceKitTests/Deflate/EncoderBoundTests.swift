import CPNG
import Foundation
import Testing
@testable import GlsliceKit

/// The default encoder's bound against zlib 6 (issue 69, round six): on images whose repeats
/// lie where the plan and the matcher's near candidates do not look (`EncoderCorpus`), and on
/// the renders that were round six's findings, the default's file is at most 1.10x the bytes of
/// `--compression zlib`'s (zlib 6, the yardstick), and decodes (libpng) to the same pixels.
/// Before `PieceGuard` and the palette rows' filter rule: up to 86x (docs/HARDENING.md).
@Suite struct EncoderBoundTests {
    static let bound = 1.10

    /// Both files, checked to decode to the same pixels; their byte counts.
    func sizes(_ encode: (Compression) throws -> Data, _ label: String) throws -> (ours: Int, zlib: Int) {
        let ours = try encode(.default), zlib = try encode(.zlib)
        let a = try PNGDecoder.decode(data: ours, maxPixels: 1 << 26), b = try PNGDecoder.decode(data: zlib, maxPixels: 1 << 26)
        #expect(a == b && a.height > 0, "\(label): the default's pixels are not zlib's")
        return (ours.count, zlib.count)
    }

    func check(_ label: String, _ sizes: (ours: Int, zlib: Int)) {
        let ratio = Double(sizes.ours) / Double(sizes.zlib)
        #expect(ratio <= Self.bound, "\(label): \(sizes.ours) B against zlib 6's \(sizes.zlib) (\(ratio)x)")
    }

    /// Rows repeating 2-40 rows back, rows shifted 3-31 px (16 colours, 256, RGBA), dithers,
    /// two-colour noise, a screenshot, each straight (no plan), 1000 x 400. The RGBA ones are two
    /// pieces: the second coded by zlib is primed with the first's last 32 KiB.
    @Test func theCorpusStaysWithinTheBound() throws {
        for item in EncoderCorpus.cases(width: 1000, height: 400) {
            check(item.name, try sizes({ try PNGEncoder.encode(item.image, compression: $0) }, item.name))
        }
    }

    /// The screenshot at the other sizes and seeds `make fuzz-bound` tries (1.53-1.70x zlib 6's bytes
    /// before `PieceGuard.asksZlib`: its glyphs recur anywhere in a row, beyond the near candidates).
    @Test(arguments: [(600, 240, 1), (1500, 300, 2), (333, 901, 3)])
    func theScreenshotStaysWithinTheBoundAtOtherSizes(width: Int, height: Int, seed: Int) throws {
        let item = try #require(EncoderCorpus.cases(width: width, height: height, seed: UInt64(seed)).first { $0.name == "shot-text" })
        check("\(item.name) \(width)x\(height) seed \(seed)", try sizes({ try PNGEncoder.encode(item.image, compression: $0) }, item.name))
    }

    /// The 1-bit Bayer dither 1500 px wide (`make fuzz-bound`), whose rows repeat 4 back: 5.0x zlib 6's
    /// bytes before the matcher tried palette rows 2-4 back.
    @Test func aWideDitherStaysWithinTheBound() throws {
        let item = try #require(EncoderCorpus.cases(width: 1500, height: 300, seed: 1).first { $0.name == "dither-bayer" })
        check("dither-bayer 1500x300", try sizes({ try PNGEncoder.encode(item.image, compression: $0) }, item.name))
    }

    /// 256 colours whose rows shift 5 px, at 600 x 240 (`make fuzz-bound`, seed 2): its tokens passed
    /// every checkpoint but came out 1.29x zlib 6's bytes; the piece's first eighth, at 12 bytes a token,
    /// gives it up (`PieceGuard.firstShare`).
    @Test func aShiftedPaletteStaysWithinTheBoundAtASmallSize() throws {
        let item = try #require(EncoderCorpus.cases(width: 600, height: 240, seed: 2).first { $0.name == "shift-s5-256c" })
        check("shift-s5-256c 600x240 seed 2", try sizes({ try PNGEncoder.encode(item.image, compression: $0) }, item.name))
    }

    /// A piece's checkpoints, by hand: its first 16 KiB at 4 bytes a token, its first eighth (16 KiB at
    /// least) and 128 KiB at 12, its end at 12; where two fall on one row, the stricter.
    @Test func aPiecesFirstEighthIsACheckpoint() {
        typealias C = PieceGuard.Checkpoint
        // 240 rows of 601 bytes: 16 KiB is 28 rows (16,828 B / 4), an eighth 18,030 B is 30 rows
        // (18,030 / 12), 128 KiB 219 rows (131,619 / 12), the end 144,240 / 12.
        #expect(PieceGuard.checkpoints(pieceRows: 240, rowBytes: 601)
            == [C(rows: 28, maxTokens: 4207), C(rows: 30, maxTokens: 1502), C(rows: 219, maxTokens: 10968), C(rows: 240, maxTokens: 12020)])
        // 100 rows of 301: an eighth is under 16 KiB, so 16 KiB (55 rows, 16,555 B) is checked at 12, not 4.
        #expect(PieceGuard.checkpoints(pieceRows: 100, rowBytes: 301) == [C(rows: 55, maxTokens: 1379), C(rows: 100, maxTokens: 2508)])
        // A 1 MiB piece: its eighth is the 128 KiB check.
        #expect(PieceGuard.checkpoints(pieceRows: 1024, rowBytes: 1024)
            == [C(rows: 16, maxTokens: 4096), C(rows: 128, maxTokens: 10922), C(rows: 1024, maxTokens: 87381)])
    }

    /// A whole image past 512 KiB is held at its first eighth to a token per 16 bytes
    /// (`PieceGuard.largeWholeImageBytesPerToken`), by hand: 8,000 rows of 85 bytes (the 28 x 8000 `round`
    /// texture's). 16 KiB is 193 rows (16,405 B / 4), an eighth 85,000 B is 1,000 rows (/ 16 whole, / 12
    /// otherwise), 128 KiB 1,543 rows (131,155 / 12), the end 680,000 / 12.
    @Test func aLargeWholeImagesFirstEighthIsHeldToATokenPer16Bytes() {
        typealias C = PieceGuard.Checkpoint
        let first = C(rows: 193, maxTokens: 4101), rest = [C(rows: 1543, maxTokens: 10929), C(rows: 8000, maxTokens: 56666)]
        #expect(PieceGuard.checkpoints(pieceRows: 8000, rowBytes: 85, wholeImage: true) == [first, C(rows: 1000, maxTokens: 5312)] + rest)
        #expect(PieceGuard.checkpoints(pieceRows: 8000, rowBytes: 85) == [first, C(rows: 1000, maxTokens: 7083)] + rest)
        // 512 KiB or less (6,168 rows of 85 B: 524,280 B): a whole image's eighth stays at 12 (771 rows, 65,535 B / 12).
        #expect(PieceGuard.checkpoints(pieceRows: 6168, rowBytes: 85, wholeImage: true)
            == [first, C(rows: 771, maxTokens: 5461), C(rows: 1543, maxTokens: 10929), C(rows: 6168, maxTokens: 43690)])
        // 6 tokens a row: 6,000 by row 1,000 fail a whole image's eighth, and pass every check of a piece that is not.
        let six = ArraySlice(repeating: 6, count: 8000)
        #expect(PieceGuard.recodes(six, rowBytes: 85, wholeImage: true))
        #expect(!PieceGuard.recodes(six, rowBytes: 85))
    }

    /// A piece's 4 KiB after its first row at 4 bytes a token (`PieceGuard.early`), by hand: 240 rows of 301
    /// bytes check rows 1-14 (4,214 B / 4 = 1,053 tokens), before the first checkpoint's 55 rows; rows of 4,099
    /// bytes check row 1 (1,024), before 16 KiB's 4; a piece whose first checkpoint is no later has none.
    @Test func aPieces4KiBAfterItsFirstRowAreHeldToATokenPer4Bytes() {
        typealias E = PieceGuard.EarlyCheck
        #expect(PieceGuard.earlyCheck(pieceRows: 240, rowBytes: 301) == E(rows: 1..<15, maxTokens: 1053))
        #expect(PieceGuard.earlyCheck(pieceRows: 100, rowBytes: 4099) == E(rows: 1..<2, maxTokens: 1024))
        #expect(PieceGuard.earlyCheck(pieceRows: 10, rowBytes: 301) == nil) // 10 rows: its end, the first checkpoint, comes first
        #expect(PieceGuard.earlyCheck(pieceRows: 15, rowBytes: 301) == nil)
        #expect(PieceGuard.earlyCheck(pieceRows: 16, rowBytes: 301) == E(rows: 1..<15, maxTokens: 1053))
        // 1,054 tokens in rows 1-14 fail, though 16 KiB's 1,379 and the end's would pass; 1,053 pass.
        var counts = [Int](repeating: 1, count: 240)
        counts[1] = 1054 - 13
        #expect(PieceGuard.recodes(counts[...], rowBytes: 301))
        counts[1] = 1053 - 13
        #expect(!PieceGuard.recodes(counts[...], rowBytes: 301))
        // Counted in its rows only: row 0's 150 and row 15's 50 count against 16 KiB's checkpoint (150 + 1,053
        // + 50 + 39 in 55 rows: 1,292 of 1,379), not the early check's.
        counts[0] = 150
        counts[15] = 50
        #expect(!PieceGuard.recodes(counts[...], rowBytes: 301))
        counts[1] = 1054 - 13
        #expect(PieceGuard.recodes(counts[...], rowBytes: 301))
    }

    /// Rows of 16 bytes or fewer (the filter byte counted) are zlib's from the start, by hand: 15 palette
    /// pixels or 3 RGBA (13 bytes) are, 16 palette pixels (17 bytes) are not.
    @Test func narrowRowsAreZlibsFromTheStart() {
        #expect(PieceGuard.narrow(rowBytes: 16) && PieceGuard.narrow(rowBytes: 1 + 3 * 4) && PieceGuard.narrow(rowBytes: 2))
        #expect(!PieceGuard.narrow(rowBytes: 17) && !PieceGuard.narrow(rowBytes: 1 + 5 * 4))
    }

    /// A whole image given up is libdeflate 6's stream of its rows as they were (all None): zlib's
    /// `uncompress` gives those rows back under the Adler-32 it returns, and it is no larger than
    /// 1.02x zlib 6's over the same rows. Other pieces (history before them) stay zlib 6's, primed.
    @Test func aWholeImageGivenUpIsLibdeflatesOverItsRowsAsTheyWere() throws {
        let rowBytes = 301, rows = 120
        var asIs = [UInt8](repeating: 0, count: rowBytes * rows), filtered = asIs
        var rng = SeededGenerator(seed: 69)
        for r in 0..<rows {
            asIs[r * rowBytes] = 0
            for k in 1..<rowBytes { asIs[r * rowBytes + k] = r % 5 == 0 ? UInt8.random(in: 0...15, using: &rng) : asIs[(r - 1) * rowBytes + 1 + (k + 2) % (rowBytes - 1)] }
            // Filtered by hand: odd rows Up (each byte less the one above), even rows None.
            filtered[r * rowBytes] = r % 2 == 1 ? 2 : 0
            for k in 1..<rowBytes { filtered[r * rowBytes + k] = r % 2 == 1 ? asIs[r * rowBytes + k] &- asIs[(r - 1) * rowBytes + k] : asIs[r * rowBytes + k] }
        }
        let recoded = filtered.withUnsafeBufferPointer {
            PieceGuard.recoded($0.baseAddress!, history: 0, count: $0.count, windowBits: 15, last: true, unfiltering: rowBytes)
        }
        #expect(recoded.status == Z_OK)
        let adler = UInt32(asIs.withUnsafeBufferPointer { adler32(adler32(0, nil, 0), $0.baseAddress, uInt($0.count)) })
        #expect(recoded.adler == adler)
        let stream = [0x78, 0x9C] + recoded.bytes + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        var out = [UInt8](repeating: 0, count: asIs.count)
        var length = uLong(asIs.count)
        #expect(uncompress(&out, &length, stream, uLong(stream.count)) == Z_OK && out == asIs)
        var zlibLength = compressBound(uLong(asIs.count)), zlibOut = [UInt8](repeating: 0, count: Int(zlibLength))
        #expect(compress2(&zlibOut, &zlibLength, asIs, uLong(asIs.count), 6) == Z_OK)
        #expect(Double(recoded.bytes.count + 6) <= 1.02 * Double(zlibLength), "\(recoded.bytes.count + 6) B against zlib 6's \(zlibLength)")
    }

    /// `PieceGuard.asksZlib`'s rules, by hand: 3 tokens a hundred bytes at 11 bits each or more, or 6
    /// at 8 bits in a piece of at most 512 KiB.
    @Test func manyDearTokensAskZlib() {
        #expect(PieceGuard.asksZlib(tokens: 3_000, codedBytes: 4_125, rawBytes: 100_000)) // 3.0 a hundred bytes, 11.0 bits
        #expect(!PieceGuard.asksZlib(tokens: 2_999, codedBytes: 9_000, rawBytes: 100_000)) // too few
        #expect(!PieceGuard.asksZlib(tokens: 3_000, codedBytes: 4_124, rawBytes: 100_000)) // 10.997 bits: cheap enough
        #expect(PieceGuard.asksZlib(tokens: 30_000, codedBytes: 41_250, rawBytes: 1_000_000)) // the first rule has no size limit
        #expect(PieceGuard.asksZlib(tokens: 6_000, codedBytes: 6_000, rawBytes: 100_000)) // 6.0 a hundred bytes, 8.0 bits
        #expect(!PieceGuard.asksZlib(tokens: 6_000, codedBytes: 5_999, rawBytes: 100_000)) // 7.999 bits
        #expect(PieceGuard.asksZlib(tokens: 31_458, codedBytes: 31_458, rawBytes: 524_288)) // 512 KiB: still asks
        #expect(!PieceGuard.asksZlib(tokens: 31_459, codedBytes: 31_459, rawBytes: 524_289)) // a byte more: zlib's time on top too dear
        #expect(!PieceGuard.asksZlib(tokens: 0, codedBytes: 10, rawBytes: 0))
    }

    /// A resampled texture from the bench manifest (`1606.png`): `texture.png`, mirrored, stretched by `linear`
    /// at 3x and repeated down 473 x 192. Its rows recur 13-30 rows back after other rows, so each, filtered
    /// against its own row above, was unlike its twin: 1.42x zlib 6's bytes. `RepeatMap.noneRows` writes such
    /// rows None, and they copy each other (1.005x).
    @Test func aResampledTextureStaysWithinTheBound() throws {
        try checkManifestLine("texture.png",
                              #"{"pixels": "473x192", "scale": 3, "insets": "6,6,6,6", "mode-x": "stretch", "mode-y": "repeat", "filter": "linear", "center": true}"#,
                              "texture stretch x repeat 473x192@3x")
    }

    /// Bench manifest outputs (`2191.png`, `2318.png`, `1383.png`) whose rows copy the last row of a run of rows
    /// equal to the row above, 13-21 rows back, where the run's first row is out of reach: with the run written Up
    /// (zeros), those rows had nothing to copy, 1.20x, 1.21x and 1.30x zlib 6's bytes. `RepeatMap.noneRows` writes
    /// the run's last and first rows None, so the last copies the first and the later rows the last.
    @Test(arguments: [
        #"{"pixels": "483x168", "scale": 2, "insets": "6,6,6,6", "mode-x": "round", "mode-y": "auto", "filter": "linear", "center": true}"#,
        #"{"pixels": "265x182", "scale": 3, "insets": "6,6,6,6", "mode-x": "round", "mode-y": "repeat", "filter": "linear", "center": true}"#,
        #"{"pixels": "467x99", "scale": 2, "insets": "6,6,6,6", "mode-x": "stretch", "mode-y": "repeat", "filter": "linear", "center": true}"#,
    ])
    func aRowCopyingARunsLastRowStaysWithinTheBound(line: String) throws {
        try checkManifestLine("texture.png", line, "texture \(line)")
    }

    /// An HD output of the device kit's mix: `button@2x.png` `repeat` at 1657 x 1057 (the HD set's `263.png`),
    /// 1.18x zlib 6's bytes before runs joined at unit seams: each 6 KiB unit ended its match, a token a seam.
    @Test func aStretchedButtonStaysWithinTheBound() throws {
        try checkManifestLine("button@2x.png", #"{"pixels": "1657x1057", "insets": "14,12,14,12", "mode": "repeat", "filter": "nearest"}"#,
                              "button@2x repeat 1657x1057")
    }

    /// A manifest's line on a fixture, as batch reads and renders it, held to the bound.
    func checkManifestLine(_ file: String, _ line: String, _ label: String) throws {
        let image = try PNGDecoder.decode(path: "Fixtures/\(file)", maxPixels: 1 << 24).premultiplied()
        let source = ResolvedSource(source: SourceImage(image: image, file: file), key: SourceKey(contentHash: "bound:\(file)", recipe: .plain))
        var request = try JSONDecoder().decode(RenderRequest.self, from: Data(line.utf8))
        check(label, try sizes({ compression in
            request.compression = compression
            let job = try PreparedJob(request: request, source: source, limits: Limits())
            return Data(try Engine.encode(job, drawing: .here, to: .memory).data ?? [])
        }, label))
    }

    /// Round six's renders: `round` and `space` on narrow, tall outputs, a 2-px `round` strip, and
    /// 1-px linear stretches past 65,536 rows a texel (2-byte rows: no match of 3 bytes starts in one).
    @Test func narrowTallRendersStayWithinTheBound() throws {
        let renders: [(name: String, file: String, size: PixelSize, mode: ResizeMode)] = [
            ("round-button", "button.png", PixelSize(width: 60, height: 8000), .round),
            ("round-texture", "texture.png", PixelSize(width: 28, height: 8000), .round),
            ("space-button", "button.png", PixelSize(width: 60, height: 8000), .space),
            ("round-strip", "texture.png", PixelSize(width: 2, height: 400_000), .round),
            ("stretch-1px-5", "bar.png", PixelSize(width: 1, height: 393_716), .stretch),
            ("stretch-1px-gradient", "shadow.png", PixelSize(width: 1, height: 2_000_000), .stretch),
        ]
        for render in renders {
            let image = try PNGDecoder.decode(path: "Fixtures/\(render.file)", maxPixels: 1 << 24).premultiplied()
            let source = ResolvedSource(source: SourceImage(image: image, file: render.file), key: SourceKey(contentHash: "bound:\(render.file)", recipe: .plain))
            check(render.name, try sizes({ compression in
                var request = RenderRequest(size: .pixels(render.size), insets: .zero, modes: PerAxis(x: render.mode, y: render.mode))
                request.compression = compression
                if render.mode == .stretch { request.filter = .linear }
                let job = try PreparedJob(request: request, source: source, limits: Limits())
                return Data(try Engine.encode(job, drawing: .here, to: .memory).data ?? [])
            }, render.name))
        }
    }
}
