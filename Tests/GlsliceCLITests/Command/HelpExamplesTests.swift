import Foundation
import Testing
@testable import GlsliceKit

/// Every example in every subcommand's `--help` runs as printed, from a copy of
/// the repository root (its `Fixtures`), in order, with `glslice` on the PATH:
/// the exit status is 0 unless the comment above it says "(exit N".
/// `serve` examples run until they are sent SIGINT, as "until Ctrl-C" says.
@Suite struct HelpExamplesTests {
    struct Example {
        var command: String
        var status: Int32
    }

    /// Held while a subcommand's examples run if any of them names a file in /tmp.
    static let tmpLock = NSLock()

    static let subcommands = ["render", "batch", "inspect", "optimize", "preview", "compare", "doctor", "parity", "serve", "sign"]

    /// The commands of the help's "Examples" block: lines indented two spaces,
    /// `\`-continued lines joined; `#` lines are comments (a command shown in a
    /// comment, `#   curl …`, is not run).
    static func examples(inHelp help: String) -> [Example] {
        var examples: [Example] = []
        var expected: Int32 = 0
        var pending: String?
        var inExamples = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("Examples") { inExamples = true; continue }
            guard inExamples else { continue }
            if line.hasPrefix("USAGE:") || line.hasPrefix("OPTIONS:") || line.hasPrefix("ARGUMENTS:") { break }
            let text = line.trimmingCharacters(in: .whitespaces)
            if let open = pending {
                pending = open + " " + text
            } else if text.hasPrefix("#") {
                if let range = text.range(of: #"\(exit (\d+)"#, options: .regularExpression) {
                    expected = Int32(text[range].dropFirst("(exit ".count)) ?? 0
                }
                continue
            } else if text.isEmpty {
                expected = 0
                continue
            } else {
                pending = text
            }
            if let command = pending, !command.hasSuffix("\\") {
                examples.append(Example(command: command, status: expected))
                pending = nil
                expected = 0
            } else if let command = pending {
                pending = String(command.dropLast()).trimmingCharacters(in: .whitespaces)
            }
        }
        return examples
    }

    /// The files a command names with `-o`, `--output` or `--diff` (not `-`).
    static func outputs(of command: String) -> [String] {
        let words = command.split(separator: " ").map(String.init)
        return words.indices.dropLast().compactMap { i in
            ["-o", "--output", "--diff"].contains(words[i]) && words[i + 1] != "-" ? words[i + 1] : nil
        }
    }

    @Test func theParserReadsWhatTheHelpShows() {
        let help = """
        Examples (from the repository root):
          # A comment:
          glslice render a.png \\
              --pixels 2x2 -o b.png

          # Where? (exit 1: they differ)
          glslice compare a.png b.png
          #   curl -o p.png 'http://x/'
        USAGE: glslice
        """
        let found = Self.examples(inHelp: help)
        #expect(found.map(\.command) == ["glslice render a.png --pixels 2x2 -o b.png", "glslice compare a.png b.png"])
        #expect(found.map(\.status) == [0, 1])
    }

    @Test(arguments: subcommands)
    func examplesRunAsPrinted(subcommand: String) throws {
        let help = try glslice([subcommand, "--help"])
        #expect(help.status == 0)
        let examples = Self.examples(inHelp: String(decoding: help.stdout, as: UTF8.self))
        #expect(!examples.isEmpty, "\(subcommand) --help has no examples")
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: fixtures, to: root.appendingPathComponent("Fixtures"))
        let path = glsliceBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // `serve` and `sign` both write and read /tmp/glslice-serve.key: one subcommand's
        // examples at a time may touch /tmp, or one reads the key while the other truncates it.
        let touchesTmp = examples.contains { $0.command.contains("/tmp/") }
        if touchesTmp { Self.tmpLock.lock() }
        defer { if touchesTmp { Self.tmpLock.unlock() } }
        for example in examples {
            let serves = example.command.contains("glslice serve")
            // A server runs until Ctrl-C: SIGINT after a few seconds; a clean stop is exit 0.
            let arguments = serves ? ["--preserve-status", "-s", "INT", "4", "bash", "-c", example.command]
                                   : ["600", "bash", "-c", example.command]
            if serves { documentedPortLock.lock() }
            defer { if serves { documentedPortLock.unlock() } }
            let result = try run(URL(fileURLWithPath: "/usr/bin/timeout"), arguments, in: root, environment: ["PATH": path])
            #expect(result.status == example.status, "\(subcommand): `\(example.command)` exited \(result.status): \(result.stderr.prefix(400))")
            // What it says it writes is there and reads back: a PNG or WebP through libpng or libwebp, a folder for a set.
            for output in Self.outputs(of: example.command) where result.status == 0 || result.status == 1 {
                let url = root.appendingPathComponent(output)
                if output.hasSuffix(".imageset") {
                    #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("Contents.json").path), "\(example.command)")
                } else if output.hasSuffix(".png") || output.hasSuffix(".webp") {
                    let data = try Data(contentsOf: url)
                    let image = output.hasSuffix(".webp") ? try WebPDecoder.decode(data: data, maxPixels: 1 << 26)
                                                          : try PNGDecoder.decode(data: data, maxPixels: 1 << 26)
                    #expect(image.width > 0 && image.height > 0, "\(example.command): \(output)")
                }
            }
            if serves { #expect(result.stderr.contains("listening"), "\(example.command): \(result.stderr.prefix(400))") }
        }
        // Nothing is left in the clone's root but what was there and out/ (git ignores it).
        let litter = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !["Fixtures", "out"].contains($0) }
        #expect(litter.isEmpty, "\(subcommand) --help's examples wrote \(litter) into the root")
    }
}
