import Foundation
import Testing

/// Option values as a user types them: any case is read, a near miss gets
/// "did you mean", and the message points to the subcommand's own help.
@Suite struct OptionValueTests {
    @Test(arguments: [(["--mode", "Stretch"], "stretch"), (["--filter", "NEAREST"], "nearest"), (["--mode-y", "Round"], "round")])
    func anyCaseIsRead(option: [String], mode: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let typed = folder.appendingPathComponent("typed.png").path, lower = folder.appendingPathComponent("lower.png").path
        let base = ["render", fixtures.appendingPathComponent("texture.png").path, "--insets", "6", "--pixels", "90x70"]
        let first = try glslice(base + option + ["-o", typed])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try glslice(base + [option[0], mode, "-o", lower])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: typed)) == Data(contentsOf: URL(fileURLWithPath: lower)))
    }

    @Test(arguments: [
        (["render", "x.png", "--pixels", "9x9", "--mode", "strech", "-o", "o.png"], "--mode must be one of: stretch, tile, auto, repeat, round, space, got 'strech'; did you mean 'stretch'?", "glslice render --help"),
        (["render", "x.png", "--pixels", "9x9", "--mode-x", "tiel", "-o", "o.png"], "did you mean 'tile'?", "glslice render --help"),
        (["batch", "m.jsonl", "--backend", "gpy"], "--backend must be one of: cpu, gpu, auto, hybrid, got 'gpy'; did you mean 'gpu'?", "glslice batch --help"),
        (["render", "x.png", "--pixels", "9x9", "--compression", "smal", "-o", "o.png"], "did you mean 'small'?", "glslice render --help"),
        (["render", "x.png", "--pixels", "9x9", "--filter", "zzz", "-o", "o.png"], "--filter must be one of: linear, nearest, got 'zzz'", "glslice render --help"),
    ])
    func aNearMissIsNamed(arguments: [String], words: String, help: String) throws {
        let result = try glslice(arguments)
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && result.stderr.contains(words) && result.stderr.contains("(see '\(help)')"), "\(result.stderr)")
        if words.contains("zzz") { #expect(!result.stderr.contains("did you mean")) }
    }
}
