import Foundation
import Testing

/// docs/HARDENING.md, round four: the command line's findings. Every option
/// of every command given a value out of its range exits 64 with one line
/// naming the option (finding 7 and the two "also seen"), a manifest's NUL and
/// invalid UTF-8 are named (findings 5 and 8), and batch's `auto` is the CPU.
@Suite struct RoundFourCommandTests {
    /// Each command with arguments that are right but for the option under test.
    static func base(_ command: String, in folder: URL) -> [String] {
        let panel = fixtures.appendingPathComponent("panel.png").path
        switch command {
        case "render": return ["render", panel, "--pixels", "40x40", "-o", folder.appendingPathComponent("r.png").path]
        case "batch": return ["batch", folder.appendingPathComponent("m.jsonl").path]
        case "serve": return ["serve", "--root", fixtures.path, "--bind", "127.0.0.1:0", "--no-access-log"]
        case "compare": return ["compare", panel, panel]
        case "preview": return ["preview", panel, "-o", folder.appendingPathComponent("p.png").path]
        case "inspect": return ["inspect", panel]
        case "optimize": return ["optimize", panel, "-o", folder.appendingPathComponent("o.png").path]
        case "parity": return ["parity"]
        case "doctor": return ["doctor"]
        default: return [command]
        }
    }

    /// (command, option, values out of its range), written from each option's documented range.
    static let outOfRange: [(String, String, [String])] = [
        ("render", "--gpu", ["256", "8796093022208"]),
        ("render", "--scale", ["0", "nan", "inf", "1e309", "-2"]),
        ("render", "--source-scale", ["0", "nan", "1e309"]),
        ("render", "--max-source-pixels", ["0"]),
        ("render", "--max-output-pixels", ["0"]),
        ("render", "--insets", ["-1", "nan"]),
        ("render", "--border-width", ["-1"]),
        ("render", "--outset", ["-1"]),
        ("render", "--size", ["0x40", "40x-1"]),
        ("render", "--pixels", ["0x40", "99999999999999999999x2"]),
        ("render", "--lattice", ["x=9-3"]),
        ("batch", "--jobs", ["0", "100000", "8796093022208"]),
        ("batch", "--cache-mb", ["0", "8796093022208", "9223372036854775807"]),
        ("batch", "--gpu-mb", ["0", "15", "8796093022208"]),
        ("batch", "--gpu", ["256", "9223372036854775807"]),
        ("batch", "--max-source-pixels", ["0"]),
        ("batch", "--shard", ["5/4", "0/0"]),
        ("serve", "--gpu", ["256", "8796093022208"]),
        ("serve", "--gpu-mb", ["0", "15", "8796093022208"]),
        ("serve", "--workers", ["0", "100000"]),
        ("serve", "--queue", ["99999999999999999999"]),
        ("serve", "--cache-mb", ["8796093022208", "9223372036854775807"]),
        ("serve", "--source-cache-mb", ["8796093022208"]),
        ("serve", "--answer-mb", ["0", "8796093022208"]),
        ("serve", "--max-connections", ["0"]),
        ("serve", "--timeout", ["0", "nan", "86401"]),
        ("serve", "--idle-timeout", ["0", "inf"]),
        ("serve", "--drain-timeout", ["nan", "86401"]),
        ("serve", "--bind", ["127.0.0.1:70000"]),
        ("compare", "--tolerance", ["256", "99999999999999999999"]),
        ("preview", "--max-megapixels", ["0", "100001", "9223372036854775807"]),
        ("inspect", "--source-scale", ["0", "nan"]),
        ("optimize", "--source-scale", ["0", "inf"]),
        ("parity", "--cases", ["0", "8796093022208"]),
        ("parity", "--gpu", ["256"]),
        ("doctor", "--gpu", ["256", "9223372036854775807"]),
    ]

    @Test func everyOptionOutOfItsRangeExits64WithOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let panel = fixtures.appendingPathComponent("panel.png").path
        try #"{"input": "\#(panel)", "output": "o.png", "pixels": "40x40", "insets": 8}"#
            .write(to: folder.appendingPathComponent("m.jsonl"), atomically: true, encoding: .utf8)
        var tried = 0
        for (command, option, values) in Self.outOfRange {
            for value in values {
                // Under a time limit: a value taken by mistake could start a server or a long run.
                let result = try glsliceWithin(60, Self.base(command, in: folder) + ["\(option)=\(value)"])
                tried += 1
                #expect(result.status == 64, "\(command) \(option)=\(value): exit \(result.status): \(result.stderr)")
                #expect(result.stderrLines.count == 1, "\(command) \(option)=\(value): \(result.stderr)")
                #expect(!result.stderr.contains("a bug"), "\(command) \(option)=\(value): \(result.stderr)")
            }
        }
        #expect(tried > 60)
    }

    // The two "also seen": 2^43 MiB of cache overflowed into none; 0 s was refused as "0 to 86400".
    @Test func theAlsoSeenMessagesSayTheRange() throws {
        let cache = try glsliceWithin(60, Self.base("serve", in: fixtures) + ["--cache-mb", "8796093022208"])
        #expect(cache.status == 64 && cache.stderr.contains("--cache-mb must be 0 to 1048576, got 8796093022208"), "\(cache.stderr)")
        let timeout = try glsliceWithin(60, Self.base("serve", in: fixtures) + ["--timeout", "0"])
        #expect(timeout.status == 64 && timeout.stderr.contains("--timeout must be more than 0 and at most 86400 seconds, got 0.0"),
                "\(timeout.stderr)")
        // Finding 7: exit 64 in glslice's words, not 70 with ArgumentParser's wrapper.
        let preview = try glslice(Self.base("preview", in: fixtures) + ["--max-megapixels", "0"])
        #expect(preview.status == 64 && preview.stderr.contains("--max-megapixels must be 1 to 100000, got 0"), "\(preview.stderr)")
    }

    // 5. A NUL cut the output's name: "notes\u0000.png" replaced a file `notes`.
    @Test func aNulInAManifestPathIsRefusedAtItsLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let panel = fixtures.appendingPathComponent("panel.png").path
        let notes = folder.appendingPathComponent("notes")
        try "keep me".write(to: notes, atomically: true, encoding: .utf8)
        let manifest = folder.appendingPathComponent("m.jsonl")
        try [#"{"input": "\#(panel)", "output": "notes\u0000.png", "pixels": "40x40"}"#,
             #"{"input": "\#(panel)", "output": "notes\u0000x.webp", "pixels": "40x40"}"#,
             #"{"input": "\#(panel)\u0000.png", "output": "fine.png", "pixels": "40x40"}"#]
            .joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--backend", "cpu"])
        #expect(result.status == 1)
        #expect(try String(contentsOf: notes, encoding: .utf8) == "keep me")
        let lines = result.stderrLines.filter { $0.contains("NUL character") }
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.contains { $0.contains("m.jsonl:1:") && $0.contains("\"output\"") })
        #expect(lines.contains { $0.contains("m.jsonl:3:") && $0.contains("\"input\"") })
        #expect(result.stderr.contains("0 rendered, 0 skipped, 3 failed"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("fine.png").path))
    }

    // 8. One invalid UTF-8 byte gave "missing \"output\"" and the like for keys that were there.
    @Test func invalidUTF8InAManifestIsNamedWithItsOffset() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        var bytes = Array(#"{"input": "panel.png", "output": "a.png", "mode": "st"#.utf8)
        let offset = bytes.count
        bytes += [0xFF] + Array(#"retch", "pixels": "40x40"}"#.utf8)
        try Data(bytes).write(to: manifest)
        let result = try glslice(["batch", manifest.path, "--backend", "cpu"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("m.jsonl:1: not valid UTF-8 at byte \(offset) of the line"), "\(result.stderr)")
        #expect(!result.stderr.contains("missing"), "\(result.stderr)")
        #expect(!result.stderr.contains("must be a string"), "\(result.stderr)")
    }

    /// Batch's `auto` is the CPU on every host (a GPU node was measured slower), and says nothing.
    /// Without a hardware GPU (this machine: llvmpipe at most), batch's `auto` is the CPU, and says nothing.
    @Test func batchAutoIsTheCPUWithoutAHardwareGPU() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let panel = fixtures.appendingPathComponent("panel.png").path
        let manifest = folder.appendingPathComponent("m.jsonl")
        try #"{"input": "\#(panel)", "output": "a.png", "pixels": "40x40", "insets": 8}"#.write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(summary?["backend"] as? String == "cpu", "\(String(decoding: result.stdout, as: UTF8.self))")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let doctor = try glslice(["doctor"])
        let text = String(decoding: doctor.stdout, as: UTF8.self)
        #expect(text.contains("'glslice render --backend auto' takes: cpu at every size"), "\(text)")
        if GPUAvailability.softwareOnly {
            #expect(text.contains("'glslice batch' and 'glslice serve' draw on the CPU"), "\(text)")
        }
    }
}

/// Issue 40's messages: each names the cause and the way out.
@Suite struct NewcomerMessageTests {
    /// A source that is no PNG is named for what it is (bytes written by hand: each format's magic).
    @Test(arguments: [("jpeg.png", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01], "a JPEG file, not a PNG"),
                      ("gif.png", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0], "a GIF file, not a PNG"),
                      ("webp.png", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WEBPVP8L".utf8), "a WebP file, not a PNG"),
                      ("empty.png", [], "the file is empty (0 bytes), not a PNG"),
                      ("text.png", Array("hello, world".utf8), "not a PNG file (bad signature)")])
    func aSourceThatIsNoPNGIsNamed(name: String, bytes: [UInt8], words: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        try Data(bytes).write(to: input)
        let result = try glslice(["render", input.path, "--pixels", "10x10", "-o", folder.appendingPathComponent("o.png").path])
        #expect(result.status == 65)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("\(input.path): \(words)"), "\(result.stderr)")
        if !bytes.isEmpty && !words.contains("bad signature") { #expect(result.stderr.contains("save or convert it as PNG")) }
    }

    @Test func anOutDirThatIsAFileIsNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let manifest = folder.appendingPathComponent("m.jsonl")
        try #"{"input": "\#(fixtures.appendingPathComponent("panel.png").path)", "output": "a.png", "pixels": "9x9"}"#
            .write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--out-dir", file.path])
        #expect(result.status == 73)
        #expect(result.stderr.contains("\(file.path): is a file, not a folder: --out-dir names the folder"), "\(result.stderr)")
        #expect(!result.stderr.contains("File exists"))
    }

    @Test func anEmptyManifestSaysItHeldNoJobs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        try "\n\n".write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path])
        #expect(result.status == 0) // an array task whose shard owns no lines has done its part
        #expect(result.stderr.contains("\(manifest.path) held no jobs (each non-blank line is one"), "\(result.stderr)")
        let sharded = try glslice(["batch", manifest.path, "--shard", "2/3"])
        #expect(sharded.stderr.contains("held no jobs for shard 2/3"), "\(sharded.stderr)")
    }

    @Test func aPublicBindSaysItsAddressOnce() throws {
        let result = try glsliceWithin(60, ["serve", "--root", fixtures.path, "--bind", "0.0.0.0:0"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("not 0.0.0.0;") && !result.stderr.contains("(0.0.0.0)"), "\(result.stderr)")
    }

    /// optimize --help's first example shrinks something (its panel example only said "nothing to lose"),
    /// and serve --help's curl asks the server the example before it started (it asked :8080 after a :8081 one).
    @Test func helpExamplesShowWhatTheySay() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let optimize = try glslice(["optimize", fixtures.appendingPathComponent("button@2x.png").path, "--insets", "14,12,14,12",
                                    "-o", folder.appendingPathComponent("small@2x.png").path])
        let said = String(decoding: optimize.stdout, as: UTF8.self)
        #expect(optimize.status == 0 && said.contains("50x58 px -> 49x58 px"), "\(said)")
        let optimizeHelp = String(decoding: try glslice(["optimize", "--help"]).stdout, as: UTF8.self)
        #expect(optimizeHelp.contains("glslice optimize Fixtures/button@2x.png --insets 14,12,14,12"))
        let serveHelp = String(decoding: try glslice(["serve", "--help"]).stdout, as: UTF8.self)
        let curl = try #require(serveHelp.range(of: "curl"))
        let plain = try #require(serveHelp.range(of: "glslice serve --root Fixtures\n"))
        let signed = try #require(serveHelp.range(of: "--bind 127.0.0.1:8081"))
        #expect(plain.upperBound < curl.lowerBound && curl.lowerBound < signed.lowerBound)
        #expect(serveHelp[curl.lowerBound...].prefix(200).contains("127.0.0.1:8080/render/"))
        #expect(!serveHelp.contains("> serve.key"))
    }

    @Test func helpSaysEachDefaultOnceAndEveryExitCode() throws {
        let batch = String(decoding: try glslice(["batch", "--help"]).stdout, as: UTF8.self)
        #expect(!batch.contains("(default 256)"), "\(batch)")
        #expect(batch.contains("(default: 256)"))
        // ArgumentParser wraps the discussion at the terminal's width: compare with spaces.
        let top = String(decoding: try glslice(["--help"]).stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for code in ["0 success", "1 batch", "64 ", "65 ", "66 ", "69 ", "70 ", "73 ", "75 serve", "130 batch"] {
            #expect(top.contains(code), "\(code)")
        }
    }
}
