import Foundation
import Testing
@testable import GlsliceKit

/// `--resume` from the resume index (issue 71): outputs hold no digest chunk by default, and the
/// index beside them says which job made each.
@Suite struct ResumeIndexTests {
    let panel = fixtures.appendingPathComponent("panel.png").path

    /// A folder with panel.png and a manifest of `sizes` jobs writing out/0.png, out/1.png, ...
    func manifest(_ sizes: [String], in folder: URL) throws -> String {
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("panel.png").path) {
            try FileManager.default.copyItem(atPath: panel, toPath: folder.appendingPathComponent("panel.png").path)
        }
        let path = folder.appendingPathComponent("m.jsonl").path
        try sizes.enumerated().map { #"{"input": "panel.png", "output": "out/\#($0.offset).png", "pixels": "\#($0.element)", "insets": 8}"# }
            .joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func indexFiles(_ folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out/.glslice-resume").path)) ?? []
    }

    @Test func outputsHoldNoDigestChunkAndAnUnchangedOutputIsSkipped() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = try manifest(["64x40", "90x30", "20x20"], in: folder)
        let first = try glslice(["batch", jobs, "--backend", "cpu"])
        #expect(first.status == 0, "\(first.stderr)")
        for k in 0..<3 {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("out/\(k).png")))
            #expect(ResumeHardeningTests.find(Array("tEXt".utf8), in: bytes) == nil, "out/\(k).png has a tEXt chunk")
        }
        #expect(indexFiles(folder).count == 1)
        let resumed = try glslice(["batch", jobs, "--backend", "cpu", "--resume"])
        #expect(resumed.stderr.contains("batch: 0 rendered, 3 skipped, 0 failed"), "\(resumed.stderr)")
    }

    @Test func aChangedJobOrAReplacedFileIsRenderedAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try manifest(["64x40", "90x30", "20x20"], in: folder)
        let jobs = folder.appendingPathComponent("m.jsonl").path
        #expect(try glslice(["batch", jobs, "--backend", "cpu"]).status == 0)
        // Line 0 now asks for other insets (another digest, the same size); out/1.png is rewritten with
        // its own bytes (the same byte count, another modification time).
        let lines = try String(contentsOfFile: jobs, encoding: .utf8).split(separator: "\n").map(String.init)
        try ([lines[0].replacingOccurrences(of: #""insets": 8"#, with: #""insets": 6"#)] + lines[1...]).joined(separator: "\n")
            .write(toFile: jobs, atomically: true, encoding: .utf8)
        let one = folder.appendingPathComponent("out/1.png")
        let bytes = try Data(contentsOf: one)
        Thread.sleep(forTimeInterval: 0.02)
        try bytes.write(to: one)
        let resumed = try glslice(["batch", jobs, "--backend", "cpu", "--resume"])
        #expect(resumed.stderr.contains("batch: 2 rendered, 1 skipped, 0 failed"), "\(resumed.stderr)")
        // Their new lines are trusted next time.
        let again = try glslice(["batch", jobs, "--backend", "cpu", "--resume"])
        #expect(again.stderr.contains("batch: 0 rendered, 3 skipped, 0 failed"), "\(again.stderr)")
    }

    @Test func twoShardsShareAFolderEachWithItsOwnIndexFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = try manifest(["64x40", "90x30", "20x20", "33x70", "48x48"], in: folder)
        let zero = try glslice(["batch", jobs, "--backend", "cpu", "--shard", "0/2"])
        let one = try glslice(["batch", jobs, "--backend", "cpu", "--shard", "1/2"])
        #expect(zero.status == 0 && one.status == 0, "\(zero.stderr)\(one.stderr)")
        #expect(indexFiles(folder).count == 2, "\(indexFiles(folder))")
        let resumed = try glslice(["batch", jobs, "--backend", "cpu", "--resume"])
        #expect(resumed.stderr.contains("batch: 0 rendered, 5 skipped, 0 failed"), "\(resumed.stderr)")
    }

    /// A folder written before the index: its outputs carry the tEXt record (as --digest-chunk writes
    /// it, `glslice-job` and the digest) and there is no index folder.
    @Test func aFolderFromThePreviousVersionResumes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = try manifest(["64x40", "90x30"], in: folder)
        #expect(try glslice(["batch", jobs, "--backend", "cpu", "--digest-chunk"]).status == 0)
        let png = try Data(contentsOf: folder.appendingPathComponent("out/0.png"))
        #expect(ResumeHardeningTests.text(in: png)?.count == 32)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("out/.glslice-resume"))
        let resumed = try glslice(["batch", jobs, "--backend", "cpu", "--resume"])
        #expect(resumed.stderr.contains("batch: 0 rendered, 2 skipped, 0 failed"), "\(resumed.stderr)")
    }
}
