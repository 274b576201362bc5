import Foundation
import Testing
@testable import GlsliceKit

/// `glslice render` as a user runs it: exit codes and one-line errors (docs/RENDERING.md §6).
@Suite struct RenderCommandTests {
    let button = fixtures.appendingPathComponent("button@2x.png").path

    /// Runs a command that must fail: one line on stderr that names `file`, the
    /// expected exit code, no crash, and no output file left behind.
    func expectRefusal(_ arguments: [String], code: Int32, mentions: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try glslice(arguments + ["-o", folder.appendingPathComponent("out.png").path])
        #expect(result.status == code, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("glslice: "), sourceLocation: sourceLocation)
        for word in mentions {
            #expect(result.stderr.contains(word), "\(result.stderr) lacks \(word)", sourceLocation: sourceLocation)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, sourceLocation: sourceLocation)
    }

    @Test func rendersAButton() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("ok@2x.png").path
        let result = try glslice(["render", button, "--insets", "14,12,14,12", "--size", "120x44", "--backend", "cpu", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty) // `auto` may warn about llvmpipe; see BackendCommandTests
        let image = try PNGDecoder.decode(path: output, maxPixels: 1 << 20)
        #expect(image.width == 240 && image.height == 88)
        // The top-left cap is copied unchanged (k = 1): identical premultiplied values,
        // so the PNG holds exactly what the source's premultiply/unpremultiply round trip gives.
        #expect(try topLeftCapMatches(image, source: button, width: 24, height: 28))
    }

    @Test func writesToStandardOutput() throws {
        let result = try glslice(["render", button, "--insets", "14,12,14,12", "--size", "60x30", "-o", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGDecoder.decode(data: result.stdout, maxPixels: 1 << 20)
        #expect(image.width == 120 && image.height == 60)
        // The whole PNG came through: its caps are the source's, pixel for pixel.
        #expect(try topLeftCapMatches(image, source: button, width: 24, height: 28))
    }

    @Test func helpShowsExamples() throws {
        let result = try glslice(["render", "--help"])
        #expect(result.status == 0)
        let text = String(decoding: result.stdout, as: UTF8.self)
        for example in ["button@2x.png", "--mode tile", "bar.png"] { #expect(text.contains(example)) }
    }

    @Test func missingFile() throws {
        try expectRefusal(["render", "/nonexistent/in.png", "--pixels", "10x10"], code: 66,
                          mentions: ["/nonexistent/in.png", "no such file"])
    }

    @Test func notAPNG() throws {
        try expectRefusal(["render", packageRoot.appendingPathComponent("Package.swift").path, "--pixels", "10x10"],
                          code: 65, mentions: ["Package.swift", "not a PNG"])
    }

    @Test func truncatedPNG() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try Data(contentsOf: URL(fileURLWithPath: button))
        let cut = folder.appendingPathComponent("cut.png")
        try data.prefix(data.count / 2).write(to: cut)
        try expectRefusal(["render", cut.path, "--pixels", "10x10"], code: 65, mentions: ["cut.png", "corrupt"])
    }

    @Test func insetsBeyondTheImage() throws {
        // 25 pt wide at @2x is 50 px; 20 + 20 pt = 80 px of caps, and the message says they were points.
        try expectRefusal(["render", button, "--insets", "1,20,1,20", "--pixels", "100x100"], code: 65,
                          mentions: ["button@2x.png", "insets 1,20,1,20 pt at @2x are 2,40,2,40 px, past the 50x58 px image"])
    }

    @Test func insetsNotOnWholePixels() throws {
        try expectRefusal(["render", fixtures.appendingPathComponent("panel.png").path, "--insets", "8.5,8,8,8",
                           "--pixels", "100x100"], code: 65, mentions: ["panel.png", "top inset 8.5 pt at @1x is not on whole pixels"])
    }

    @Test(arguments: [["--pixels", "0x10"], ["--pixels=-5x10"], ["--size", "10x0"], ["--size=-1x-1"]])
    func zeroOrNegativeSize(_ size: [String]) throws {
        // The flag's fault, not the file's: the message names the flag alone (issue 50).
        try expectRefusal(["render", button] + size, code: 64, mentions: ["glslice: --", "must be positive, got"])
        #expect(!(try glslice(["render", button] + size)).stderr.contains("button@2x.png"))
    }

    @Test func sizeOverTheLimit() throws {
        try expectRefusal(["render", button, "--pixels", "5000x5000", "--max-output-pixels", "1000000"],
                          code: 65, mentions: ["button@2x.png", "limit"])
        try expectRefusal(["render", button, "--pixels", "50x50", "--max-source-pixels", "100"],
                          code: 65, mentions: ["button@2x.png", "limit"])
    }

    @Test func unknownMode() throws {
        // ArgumentParser refuses it (ResizeMode is ExpressibleByArgument), naming the value and the choices.
        try expectRefusal(["render", button, "--pixels", "50x50", "--mode", "zigzag"], code: 64,
                          mentions: ["'zigzag'", "--mode", "stretch", "space"])
    }

    /// An error nobody anticipated (a bug) exits 70 with one line, not 64.
    @Test func unexpectedErrorExits70() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.png").path
        let result = try glslice(["render", button, "--pixels", "50x50", "-o", out], environment: ["GLSLICE_FAULT": "unexpected"])
        #expect(result.status == 70, "\(result.stderr)")
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("glslice: unexpected error (a bug: please report it): injected fault"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func helpFitsEightyColumns() throws {
        for command in [["--help"], ["render", "--help"], ["batch", "--help"], ["doctor", "--help"], ["parity", "--help"]] {
            let result = try glslice(command, environment: ["COLUMNS": "80"])
            #expect(result.status == 0)
            let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for line in lines {
                #expect(line.count <= 80, "\(command): \(line)")
                // A paragraph wrapped by hand and again by ArgumentParser leaves a word such as
                // "or" alone on a line in mid-sentence (a paragraph's last word ends with a full stop).
                let words = line.split(separator: " ")
                let midSentence = !line.hasSuffix(".") && !line.hasSuffix(":") && line.first != " "
                #expect(!(words.count == 1 && midSentence), "\(command): lone '\(line)'")
            }
        }
    }

    @Test func unknownOption() throws {
        try expectRefusal(["render", button, "--pixels", "50x50", "--colour", "red"], code: 64, mentions: ["--colour"])
    }

    @Test func noResizableArea() throws {
        try expectRefusal(["render", fixtures.appendingPathComponent("panel.png").path, "--insets", "8,9,8,8",
                           "--pixels", "40x40"], code: 65, mentions: ["panel.png", "no resizable area along x"])
    }

    @Test(arguments: ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent("pngsuite").path)) ?? [])
        .filter { $0.hasPrefix("x") && $0.hasSuffix(".png") }.sorted())
    func corruptPngSuiteFilesAreRefused(_ name: String) throws {
        try expectRefusal(["render", fixtures.appendingPathComponent("pngsuite/\(name)").path, "--pixels", "10x10"],
                          code: 65, mentions: [name])
    }

    @Test func ninePatchSources() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bubble = fixtures.appendingPathComponent("bubble.9.png").path
        let out = folder.appendingPathComponent("b.png").path
        let ok = try glslice(["render", bubble, "--pixels", "120x50", "-o", out])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try PNGDecoder.decode(path: out, maxPixels: 1 << 20).width == 120)
        try FileManager.default.removeItem(atPath: out)
        try expectRefusal(["render", bubble, "--insets", "2", "--pixels", "120x50"], code: 64,
                          mentions: ["bubble.9.png", "markers"])
        // A grey pixel in the marker row.
        var image = try PNGDecoder.decode(path: bubble, maxPixels: 1 << 20)
        image.rgba.pixels.replaceSubrange(12..<16, with: [128, 128, 128, 255])
        let bad = folder.appendingPathComponent("bad.9.png").path
        try PNGEncoder.write(image.premultiplied(), to: .file(bad))
        try expectRefusal(["render", bad, "--pixels", "120x50"], code: 65,
                          mentions: ["bad.9.png", "invalid color at (3,0): #808080FF"])
    }

    @Test func everyModeRendersTheFixtures() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for mode in ResizeMode.allCases {
            let out = folder.appendingPathComponent("\(mode).png").path
            let result = try glslice(["render", fixtures.appendingPathComponent("texture.png").path,
                                      "--insets", "6,6,6,6", "--mode", mode.rawValue, "--pixels", "101x57", "-o", out])
            #expect(result.status == 0, "\(mode): \(result.stderr)")
            #expect(try PNGDecoder.decode(path: out, maxPixels: 1 << 20).width == 101)
        }
    }
}
