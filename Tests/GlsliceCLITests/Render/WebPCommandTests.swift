import CWebP
import Foundation
import Testing
@testable import GlsliceKit

/// `-o x.webp` / `--format webp`: lossless WebP that libwebp's own `dwebp`
/// and its decoder read back to exactly the pixels of the PNG glslice writes.
@Suite struct WebPCommandTests {
    static let jobs: [[String]] = [
        ["button@2x.png", "--insets", "14,12,14,12", "--size", "120x44"],
        ["shadow.png", "--insets", "16", "--pixels", "240x160"],
        ["texture.png", "--insets", "6", "--mode", "round", "--pixels", "300x200"],
        ["bubble.9.png", "--pixels", "160x60"],
        ["bar.png", "--pixels", "400x24", "--filter", "nearest"],
        ["panel.png", "--insets", "8", "--pixels", "50x30", "--no-center"],
    ]

    /// Straight RGBA through libwebp's decoder.
    func decodeWebP(_ path: String) throws -> [UInt8]? {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var width: Int32 = 0, height: Int32 = 0
        let pixels = data.withUnsafeBytes { raw in
            gs_webp_decode_rgba(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &width, &height)
        }
        guard let pixels else { return nil }
        defer { gs_webp_free(pixels) }
        return Array(UnsafeBufferPointer(start: pixels, count: Int(width * height * 4)))
    }

    @Test(arguments: ["cpu", "gpu"])
    func webpDecodesToThePNGsPixels(backend: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, job) in Self.jobs.enumerated() {
            let input = fixtures.appendingPathComponent(job[0]).path
            let png = folder.appendingPathComponent("\(index).png").path, webp = folder.appendingPathComponent("\(index).webp").path
            let options = Array(job.dropFirst()) + ["--backend", backend]
            #expect(try glslice(["render", input, "-o", png] + options).status == 0)
            let made = try glslice(["render", input, "-o", webp] + options)
            #expect(made.status == 0, "\(made.stderr)")
            // RIFF....WEBPVP8L: a lossless bitstream.
            let head = Array(try Data(contentsOf: URL(fileURLWithPath: webp)).prefix(16))
            let lossless = head.count == 16 && Array(head[0..<4]) == Array("RIFF".utf8) && Array(head[8..<16]) == Array("WEBPVP8L".utf8)
            #expect(lossless, "\(job[0])")
            // libwebp's command-line decoder, then libpng (glslice compare) against the PNG.
            let decoded = folder.appendingPathComponent("\(index)-dwebp.png").path
            let dwebp = try run(URL(fileURLWithPath: "/usr/bin/dwebp"), [webp, "-o", decoded])
            #expect(dwebp.status == 0, "dwebp (Debian's webp, installed by make setup): \(dwebp.stderr)")
            let compared = try glslice(["compare", png, decoded, "--tolerance", "0"])
            #expect(compared.status == 0, "\(job[0]): \(String(decoding: compared.stdout, as: UTF8.self))")
            // And libwebp's decoder in-process, against libpng's reading of the PNG.
            let straight = try PNGDecoder.decode(path: png, maxPixels: 1 << 22).rgba.pixels
            #expect(try decodeWebP(webp) == straight, "\(job[0])")
        }
    }

    @Test func formatFlagAndNamesAgreeOrAreRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let panel = fixtures.appendingPathComponent("panel.png").path
        let base = ["render", panel, "--insets", "8", "--pixels", "40x40"]
        // --format webp with a name that says nothing: WebP.
        let plain = folder.appendingPathComponent("out").path
        #expect(try glslice(base + ["--format", "webp", "-o", plain]).status == 0)
        #expect(try decodeWebP(plain) != nil)
        for (name, flag, words) in [("a.jpg", [String](), "glslice writes PNG and WebP (lossless), not .jpg"),
                                    ("a.JPEG", [], "not .jpeg"), ("a.gif", ["--format", "webp"], "not .gif"),
                                    ("a.png", ["--format", "webp"], "--format is webp but the output is named .png"),
                                    ("a.webp", ["--format", "png"], "--format is png but the output is named .webp")] {
            let result = try glslice(base + flag + ["-o", folder.appendingPathComponent(name).path])
            #expect(result.status == 64 && result.stderrLines.count == 1 && result.stderr.contains(words), "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path))
        }
        // WebP's 16,383 px side limit is said, and nothing is left behind.
        let huge = try glslice(["render", panel, "--insets", "8", "--pixels", "20000x10", "-o", folder.appendingPathComponent("h.webp").path])
        #expect(huge.status == 65 && huge.stderr.contains("above WebP's limit of 16383 px a side"), "\(huge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("h.webp").path))
    }

    /// A batch line's `format` key, or an output named .webp; `--resume` skips a finished WebP (its digest is in XMP).
    @Test func batchWritesWebP() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let panel = fixtures.appendingPathComponent("panel.png").path
        let jobs = folder.appendingPathComponent("jobs.jsonl").path
        try ([#"{"input": "\#(panel)", "output": "a.webp", "insets": 8, "pixels": "60x40"}"#,
              #"{"input": "\#(panel)", "output": "b", "insets": 8, "pixels": "60x40", "format": "webp"}"#,
              #"{"input": "\#(panel)", "output": "c.jpg", "insets": 8, "pixels": "60x40"}"#].joined(separator: "\n") + "\n")
            .write(toFile: jobs, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", jobs, "--backend", "cpu", "--out-dir", folder.path])
        #expect(result.status == 1)
        #expect(result.stderrLines.contains { $0.contains("jobs.jsonl:3") && $0.contains("not .jpg") }, "\(result.stderr)")
        let a = try decodeWebP(folder.appendingPathComponent("a.webp").path)
        let b = try decodeWebP(folder.appendingPathComponent("b").path)
        #expect(a != nil && a == b)
        let resumed = try glslice(["batch", jobs, "--backend", "cpu", "--out-dir", folder.path, "--resume"])
        #expect(resumed.stderrLines.last?.contains("0 rendered, 2 skipped, 1 failed") == true, "\(resumed.stderr)")
    }

    /// Finding 8: optimize to a .webp past WebP's limit said "<memory>: output ...", not the file.
    @Test func optimizePastWebPsLimitNamesTheOutput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var rng = SystemRandomNumberGenerator()
        let width = 16_400 // noise: no band repeats, so optimize keeps every column
        let pixels = (0..<(width * 2)).flatMap { _ in [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), 7, 255] }
        let input = folder.appendingPathComponent("wide.png").path, output = folder.appendingPathComponent("wide.webp").path
        try PNGEncoder.write(PremultipliedImage(RGBAImage(width: width, height: 2, pixels: pixels)), to: .file(input))
        let result = try glslice(["optimize", input, "-o", output])
        #expect(result.status == 65 && result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(output) && result.stderr.contains("above WebP's limit of 16383 px a side")
                && !result.stderr.contains("<memory>"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
