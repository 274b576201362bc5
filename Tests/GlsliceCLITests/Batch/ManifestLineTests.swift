import Foundation
@testable import GlsliceKit
import Testing

/// A manifest line's bytes and its output's name, refused at that line with the line's number:
/// a NUL (round four), invalid UTF-8 (round four), an output naming a folder (rounds five and six).
@Suite struct ManifestLineTests {
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

    /// Also seen: a manifest output `"z/"` wrote a file named `z`. Now it is refused at its line.
    @Test func anOutputNamingAFolderIsRefusedAtItsLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let panel = fixtures.appendingPathComponent("panel.png").path
        let manifest = folder.appendingPathComponent("m.jsonl")
        try [#"{"input": "\#(panel)", "output": "z/", "pixels": "40x40"}"#,
             #"{"input": "\#(panel)", "output": "fine.png", "pixels": "40x40"}"#]
            .joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--backend", "cpu"])
        #expect(result.status == 1)
        let lines = result.stderrLines.filter { $0.contains("ends in '/'") }
        #expect(lines.count == 1 && lines[0].contains("m.jsonl:1:"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("z").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("fine.png").path))
        #expect(result.stderr.contains("1 rendered, 0 skipped, 1 failed"), "\(result.stderr)")
    }

    /// Finding 6: `z/.` (and `a.png/.`, `y/..`, `.`) named a folder yet wrote a file named z.
    @Test func anOutputEndingInADotFolderIsRefusedAtItsLine() throws {
        let panel = fixtures.appendingPathComponent("panel.png").path
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
}
