import CWebP
import Foundation
import Testing
@testable import GlsliceKit

/// Issue 33's CLI manners that need files: `compare` reads the WebP glslice
/// writes, `optimize` never writes more bytes than it read, `--resume` skips
/// finished WebP outputs, and the backend's warning waits for a job to render.
@Suite struct CLIMannersTests {
    @Test func compareReadsWebPAsItReadsPNG() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let texture = fixtures.appendingPathComponent("texture.png").path
        func render(_ mode: String, _ name: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            let made = try glslice(["render", texture, "--insets", "6", "--mode", mode, "--pixels", "300x200", "-o", path])
            #expect(made.status == 0, "\(made.stderr)")
            return path
        }
        let tilePNG = try render("tile", "tile.png"), tileWebP = try render("tile", "tile.webp"), roundWebP = try render("round", "round.webp")
        let same = try glslice(["compare", tilePNG, tileWebP])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(String(decoding: same.stdout, as: UTF8.self).contains("300x200 px: max difference 0,"))
        // From standard input too.
        let piped = try glslice(["compare", "-", tilePNG], stdin: URL(fileURLWithPath: tileWebP))
        #expect(piped.status == 0, "\(piped.stderr)")
        // Tiled and rounded bricks differ (exit 1), WebP against WebP.
        #expect(try glslice(["compare", tileWebP, roundWebP]).status == 1)
        // A WebP cut short is bad input: one line naming the file, exit 65.
        let whole = try Data(contentsOf: URL(fileURLWithPath: tileWebP))
        let cut = folder.appendingPathComponent("cut.webp")
        try whole.prefix(whole.count / 2).write(to: cut)
        let refused = try glslice(["compare", cut.path, tilePNG])
        #expect(refused.status == 65 && refused.stderrLines.count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("cut.webp") && refused.stderr.contains("WebP"), "\(refused.stderr)")
    }

    /// bubble.9.png's smaller form is a larger file (216 bytes against 205):
    /// the output is the input's own bytes, and the report says so.
    @Test func optimizeNeverWritesALargerFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = fixtures.appendingPathComponent("bubble.9.png")
        let output = folder.appendingPathComponent("bubble-small.9.png")
        let result = try glslice(["optimize", input.path, "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: output) == Data(contentsOf: input))
        let report = String(decoding: result.stdout, as: UTF8.self)
        #expect(report.contains("already minimal") && report.contains("is an unchanged copy"), "\(report)")
        // Where the smaller form is fewer bytes, it is written: 178 -> 167 bytes for one period of bricks.
        let texture = fixtures.appendingPathComponent("texture.png")
        let period = folder.appendingPathComponent("period.png")
        #expect(try glslice(["optimize", texture.path, "--insets", "6", "--keep-period", "-o", period.path]).status == 0)
        let before = try Data(contentsOf: texture).count, after = try Data(contentsOf: period).count
        #expect(after < before, "\(after) bytes from \(before)")
    }

    /// A batch's WebP outputs carry the job digest in an XMP chunk: a second
    /// `--resume` run skips them all, a WebP cut short is rendered again, and
    /// libwebp still decodes each file to the PNG's pixels.
    @Test func resumeSkipsFinishedWebPOutputs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let texture = fixtures.appendingPathComponent("texture.png").path, bubble = fixtures.appendingPathComponent("bubble.9.png").path
        let manifest = folder.appendingPathComponent("jobs.jsonl")
        try """
        {"input": "\(texture)", "output": "a.webp", "pixels": "120x40", "insets": "6"}
        {"input": "\(texture)", "output": "a.png", "pixels": "120x40", "insets": "6"}
        {"input": "\(bubble)", "output": "b.webp", "pixels": "90x30"}

        """.write(to: manifest, atomically: true, encoding: .utf8)
        func batch() throws -> String {
            // --digest-chunk: each file records its digest too (the XMP packet checked below).
            let result = try glslice(["batch", manifest.path, "--resume", "--digest-chunk", "--backend", "cpu"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr
        }
        #expect(try batch().contains("3 rendered, 0 skipped"))
        #expect(try batch().contains("0 rendered, 3 skipped"))
        // webpinfo (Debian's webp) sees an extended file with an XMP chunk.
        let info = try run(URL(fileURLWithPath: "/usr/bin/webpinfo"), [folder.appendingPathComponent("a.webp").path])
        let infoText = String(decoding: info.stdout, as: UTF8.self)
        #expect(info.status == 0 && infoText.contains("XMP: 1") && infoText.contains("Format: Lossless"), "\(infoText)")
        let webp = try Data(contentsOf: folder.appendingPathComponent("a.webp"))
        var width: Int32 = 0, height: Int32 = 0
        let pixels = webp.withUnsafeBytes { gs_webp_decode_rgba($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, &width, &height) }
        defer { gs_webp_free(pixels) }
        let png = try PNGDecoder.decode(path: folder.appendingPathComponent("a.png").path, maxPixels: 1 << 20)
        #expect(pixels.map { Array(UnsafeBufferPointer(start: $0, count: Int(width * height) * 4)) } == png.rgba.pixels)
        // Cut short: not finished, so rendered again.
        try webp.prefix(webp.count - 10).write(to: folder.appendingPathComponent("a.webp"))
        #expect(try batch().contains("1 rendered, 2 skipped"))
    }
}
