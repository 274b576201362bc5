import Foundation
import Testing

/// Every option of every command given a value out of its range exits 64 with one line naming the
/// option (docs/HARDENING.md, round four: finding 7 and the two "also seen").
@Suite struct OptionRangeTests {
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

}
