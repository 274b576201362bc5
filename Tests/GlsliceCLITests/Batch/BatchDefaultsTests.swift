import Foundation
import Testing

/// Issue 50: batch takes render's options as defaults for every line; a line's
/// own key wins. Which level wrote a PNG is read from its zlib header (RFC 1950
/// §2.2: FLEVEL, the top two bits of FLG, is 0 for glslice's own deflate (`default`, `fast`),
/// 2 for zlib 6 (`zlib`), 3 for zlib 9 (`small`)).
@Suite struct BatchDefaultsTests {
    /// FLEVEL of the first IDAT's zlib stream.
    static func compressionLevel(_ url: URL) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: url))
        var at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            if bytes[(at + 4)..<(at + 8)].elementsEqual("IDAT".utf8) { return Int(bytes[at + 9] >> 6) }
            at += 12 + length
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    /// The issue's line: every line of Fixtures/jobs.jsonl written `small`; then a manifest whose
    /// lines say `default` and `small` keep them, and the one that says nothing takes the command
    /// line's `zlib`, or without it the default (glslice's own deflate).
    @Test func compressionIsADefaultForEveryLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("x")
        let all = try glslice(["batch", fixtures.appendingPathComponent("jobs.jsonl").path, "--out-dir", out.path,
                               "--compression", "small", "--backend", "cpu"])
        #expect(all.status == 0, "\(all.stderr)")
        let written = try FileManager.default.contentsOfDirectory(at: out, includingPropertiesForKeys: nil).filter { $0.pathExtension == "png" }
        #expect(written.count == 8)
        for file in written { #expect(try Self.compressionLevel(file) == 3, "\(file.lastPathComponent)") }

        let panel = fixtures.appendingPathComponent("panel.png").path
        let manifest = folder.appendingPathComponent("m.jsonl")
        try [#"{"input": "\#(panel)", "output": "a.png", "pixels": "60x40"}"#,
             #"{"input": "\#(panel)", "output": "b.png", "pixels": "60x40", "compression": "default"}"#,
             #"{"input": "\#(panel)", "output": "c.png", "pixels": "60x40", "compression": "small"}"#]
            .joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        for (flag, expected) in [(["--compression", "zlib"], [2, 0, 3]), ([], [0, 0, 3])] {
            let result = try glslice(["batch", manifest.path, "--out-dir", folder.appendingPathComponent("m").path, "--backend", "cpu"] + flag)
            #expect(result.status == 0, "\(result.stderr)")
            let levels = try ["a", "b", "c"].map { try Self.compressionLevel(folder.appendingPathComponent("m/\($0).png")) }
            #expect(levels == expected, "\(flag)")
        }
    }

    /// A default's size applies where a line gives none; a line's pixels replace it (the group).
    @Test func aLinesOwnGroupWins() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let panel = fixtures.appendingPathComponent("panel.png").path
        let manifest = folder.appendingPathComponent("m.jsonl")
        try [#"{"input": "\#(panel)", "output": "a.png"}"#, #"{"input": "\#(panel)", "output": "b.png", "size": "30x20"}"#]
            .joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--out-dir", folder.path, "--pixels", "70x50", "--backend", "cpu"])
        #expect(result.status == 0, "\(result.stderr)")
        func size(_ name: String) throws -> [UInt8] { Array([UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))[16..<24]) }
        #expect(try size("a.png") == [0, 0, 0, 70, 0, 0, 0, 50]) // IHDR width, height
        #expect(try size("b.png") == [0, 0, 0, 30, 0, 0, 0, 20]) // its size, not the default's pixels
    }

    /// A bad default is refused before any line, named by its flag.
    @Test func aBadDefaultIsNamedByItsFlag() throws {
        let result = try glslice(["batch", fixtures.appendingPathComponent("jobs.jsonl").path, "--out-dir", "/tmp", "--insets", "1,2,x"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("glslice: --insets "), "\(result.stderr)")
    }

    /// Finding 5: `batch --lattice x=1-2 --insets 3` was accepted, then every line failed.
    /// Now it is refused before any line, as render refuses the pair (exit 64, one line).
    @Test func batchRefusesALatticeWithInsetsAmongItsDefaults() throws {
        let panel = fixtures.appendingPathComponent("panel.png").path
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
}
