import Foundation
import GlsliceKit
import Testing

/// docs/HARDENING.md, round six (issue 69): the command line's findings. batch checks
/// its defaults as render checks its flags (finding 5), a manifest output naming a
/// folder through `/.` or `/..` is refused at its line (6), the Kubernetes variables
/// are named (7), and optimize names the WebP it cannot write (8).
@Suite struct RoundSixCommandTests {
    let panel = fixtures.appendingPathComponent("panel.png").path

    /// Finding 5: `batch --lattice x=1-2 --insets 3` was accepted, then every line failed.
    /// Now it is refused before any line, as render refuses the pair (exit 64, one line).
    @Test func batchRefusesALatticeWithInsetsAmongItsDefaults() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        try #"{"input": "\#(panel)", "output": "a.png", "pixels": "40x40"}"#.write(to: manifest, atomically: true, encoding: .utf8)
        let batch = try glslice(["batch", manifest.path, "--backend", "cpu", "--lattice", "x=1-2", "--insets", "3"])
        #expect(batch.status == 64 && batch.stderrLines.count == 1, "\(batch.stderr)")
        #expect(batch.stderr.contains("--lattice cannot be given with insets"), "\(batch.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.png").path))
        let render = try glslice(["render", panel, "--pixels", "40x40", "--lattice", "x=1-2", "--insets", "3",
                                  "-o", folder.appendingPathComponent("b.png").path])
        #expect(render.status == 64 && render.stderr.contains("--lattice cannot be given with insets"), "\(render.stderr)")
        // A line's own lattice still replaces the defaults' insets (one group), and insets of 0 go with a lattice.
        try #"{"input": "\#(panel)", "output": "c.png", "pixels": "40x40", "lattice": "x=1-2"}"#
            .write(to: manifest, atomically: true, encoding: .utf8)
        let grouped = try glslice(["batch", manifest.path, "--backend", "cpu", "--insets", "3"])
        #expect(grouped.status == 0, "\(grouped.stderr)")
        let zero = try glslice(["batch", manifest.path, "--backend", "cpu", "--insets", "0", "--lattice", "y=1-2"])
        #expect(zero.status == 0, "\(zero.stderr)")
    }

    /// Finding 6: `z/.` (and `a.png/.`, `y/..`, `.`) named a folder yet wrote a file named z.
    @Test func anOutputEndingInADotFolderIsRefusedAtItsLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        let outputs = ["z/.", "a.png/.", "y/..", ".", "fine.png"]
        try outputs.map { #"{"input": "\#(panel)", "output": "\#($0)", "pixels": "40x40"}"# }
            .joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--backend", "cpu"])
        #expect(result.status == 1)
        for (line, said) in [(1, "ends in '/.'"), (2, "ends in '/.'"), (3, "ends in '/..'"), (4, "is '.'")] {
            #expect(result.stderrLines.filter { $0.contains("m.jsonl:\(line):") && $0.contains(said) && $0.contains("a folder") }.count == 1,
                    "line \(line): \(result.stderr)")
        }
        for name in ["z", "a.png", "y"] { #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)") }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("fine.png").path))
        #expect(result.stderr.contains("1 rendered, 0 skipped, 4 failed"), "\(result.stderr)")
    }

    /// Finding 7: a bad Kubernetes environment said "shard must be K/N ..., got '3/2'", as if
    /// `--shard` had been given. Now each message names the variable.
    @Test func aBadKubernetesEnvironmentNamesItsVariables() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        try #"{"input": "\#(panel)", "output": "a.png", "pixels": "40x40"}"#.write(to: manifest, atomically: true, encoding: .utf8)
        for (index, count, words) in [("3", "2", "JOB_COMPLETION_INDEX is 3, outside 0..<2 (JOB_COMPLETIONS=2)"),
                                      ("x", "2", "JOB_COMPLETION_INDEX is 'x', not a whole number"),
                                      ("0", "0", "JOB_COMPLETIONS is 0; an Indexed Job has at least 1 completion")] {
            let result = try glslice(["batch", manifest.path, "--print-shard"],
                                     environment: ["JOB_COMPLETION_INDEX": index, "JOB_COMPLETIONS": count])
            #expect(result.status == 64 && result.stderrLines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(words) && !result.stderr.contains("shard must be"), "\(index)/\(count): \(result.stderr)")
        }
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
