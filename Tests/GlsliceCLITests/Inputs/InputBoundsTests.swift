import Foundation
import Testing
@testable import GlsliceKit

/// Inputs other than PNGs are read bounded, and only from regular files (issue 19).
@Suite struct InputBoundsTests {
    let panel = fixtures.appendingPathComponent("panel.png").path

    /// An image set in a fresh folder, its Contents.json made by `make`.
    func imageSet(in folder: URL, _ make: (String) throws -> Void) throws -> String {
        let set = folder.appendingPathComponent("big.imageset")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: panel, toPath: set.appendingPathComponent("panel.png").path)
        try make(set.appendingPathComponent("Contents.json").path)
        return set.path
    }

    @Test func anOversizedContentsJSONIsRefusedUnread() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let set = try imageSet(in: folder) { path in
            let padding = String(repeating: " ", count: 2 << 20)
            try #"{"images": [{"filename": "panel.png", "scale": "1x"}]\#(padding)}"#.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let result = try glsliceWithin(60, ["render", set, "--pixels", "20x20", "--backend", "cpu", "-o", folder.appendingPathComponent("o.png").path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("over the 1 MiB an image set's Contents.json may have"), "\(result.stderr)")
    }

    @Test func aContentsJSONThatIsAFIFOIsRefusedNotWaitedOn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let set = try imageSet(in: folder) { path in #expect(mkfifo(path, 0o644) == 0) }
        let result = try glsliceWithin(60, ["render", set, "--pixels", "20x20", "--backend", "cpu", "-o", folder.appendingPathComponent("o.png").path])
        #expect(result.status == 65, "\(result.stderr)") // 124: it waited for a writer
        #expect(result.stderr.contains("Contents.json: is not a regular file"), "\(result.stderr)")
    }

    /// glslice's own results line can be longer than 4 KiB (it echoes a long
    /// value); the next run, a `--resume` retry, must still take the file.
    @Test func aResultsFileWithALongFirstLineIsTakenAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: panel, toPath: folder.appendingPathComponent("panel.png").path)
        let manifest = folder.appendingPathComponent("m.jsonl").path
        let long = String(repeating: "9", count: 6000)
        try [#"{"input": "panel.png", "output": "a.png", "pixels": "\#(long)"}"#,
             #"{"input": "panel.png", "output": "b.png", "pixels": "20x20", "insets": 8}"#]
            .joined(separator: "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        let results = folder.appendingPathComponent("r.jsonl").path
        let first = try glslice(["batch", manifest, "--backend", "cpu", "--results", results])
        #expect(first.status == 1)
        let firstLine = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").first ?? ""
        #expect(firstLine.utf8.count > 4096)
        let again = try glslice(["batch", manifest, "--backend", "cpu", "--results", results, "--resume"])
        #expect(again.stderr.contains("batch: 0 rendered, 1 skipped, 1 failed"), "\(again.stderr)")
        #expect(try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").count == 4)
    }
}
