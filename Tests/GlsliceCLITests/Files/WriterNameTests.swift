import Foundation
import Testing

/// Issue 50: every command that writes an image keeps its name's promise, as render
/// does: `.webp` is WebP, `.png` is PNG, and a format glslice cannot write is refused
/// (exit 64, render's words) with nothing written. The format is read from the
/// file's first bytes (the RIFF/WEBP and PNG signatures), not from glslice.
@Suite struct WriterNameTests {
    static func signature(_ url: URL) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: url))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) { return "webp" }
        return "other"
    }

    /// Each command's arguments writing to `name` in `folder`.
    static func commands(_ name: String, in folder: URL) -> [[String]] {
        let out = folder.appendingPathComponent(name).path
        let panel = fixtures.appendingPathComponent("panel.png").path, bar = fixtures.appendingPathComponent("bar.png").path
        return [
            ["preview", panel, bar, "-o", out],
            ["compare", panel, panel, "--diff", out],
            ["optimize", panel, "--insets", "8", "-o", out],
        ]
    }

    @Test func webpAndPNGNamesAreKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (ext, expected) in [("webp", "webp"), ("png", "png")] {
            for (k, arguments) in Self.commands("w\(ext).\(ext)", in: folder).enumerated() {
                let name = "c\(k).\(ext)"
                let args = arguments.map { $0.hasSuffix("w\(ext).\(ext)") ? folder.appendingPathComponent(name).path : $0 }
                let result = try glslice(args)
                #expect(result.status == 0, "\(args[0]): \(result.stderr)")
                #expect(try Self.signature(folder.appendingPathComponent(name)) == expected, "\(args[0]) -o .\(ext)")
            }
        }
    }

    @Test func anUnwritableNameIsRefusedAsRenderRefusesIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in Self.commands("o.jpg", in: folder) {
            let result = try glslice(arguments)
            #expect(result.status == 64, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.hasSuffix("o.jpg: glslice writes PNG and WebP (lossless), not .jpg; name the output .png or .webp\n"),
                    "\(arguments[0]): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("o.jpg").path))
        }
        // render's own words, for comparison.
        let render = try glslice(["render", fixtures.appendingPathComponent("panel.png").path, "--pixels", "9x9",
                                  "-o", folder.appendingPathComponent("o.jpg").path])
        #expect(render.status == 64 && render.stderr.hasSuffix("not .jpg; name the output .png or .webp\n"), "\(render.stderr)")
    }
}
