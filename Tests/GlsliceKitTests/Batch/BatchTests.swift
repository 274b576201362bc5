import Foundation
import Testing
@testable import GlsliceKit

/// `BatchRunner` end to end on the CPU backend (the GPU path is in GPUBatchTests).
@Suite struct BatchTests {
    static func jobLines(_ count: Int) -> [String] {
        let sources = [("panel.png", "8,8,8,8"), ("button@2x.png", "14,12,14,12"), ("texture.png", "6,6,6,6"),
                       ("shadow.png", "16,16,16,16"), ("bar.png", "0")]
        let modes = ["auto", "stretch", "tile", "repeat", "round", "space"]
        return (0..<count).map { i in
            let (name, insets) = sources[i % sources.count]
            return #"{"input": "\#(name)", "output": "out/\#(i).png", "insets": "\#(insets)", "#
                + #""pixels": "\#(40 + i * 7 % 200)x\#(30 + i * 11 % 90)", "mode": "\#(modes[i % modes.count])"}"#
        }
    }

    func run(_ options: BatchOptions) throws -> (BatchSummary, [String]) {
        let errors = LockedLines()
        let summary = try BatchRunner(options: options, onError: { errors.append($0) }).run()
        return (summary, errors.lines)
    }

    @Test func badLinesAreReportedAndGoodLinesRender() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = Self.jobLines(6)
        lines.insert("{\"input\": oops", at: 2)                                                       // line 3: bad JSON
        lines.insert(#"{"input": "nope.png", "output": "out/x.png", "pixels": "9x9"}"#, at: 4)        // line 5: missing input
        lines.insert(#"{"input": "panel.png", "output": "out/y.png", "pixels": "9x9", "insets": "9,9,9,9"}"#, at: 6) // line 7: insets
        let manifest = try writeManifest(lines, in: folder)
        var options = BatchOptions(manifest: manifest)
        options.backend = .cpu
        options.results = folder.appendingPathComponent("results.jsonl").path
        let (summary, errors) = try run(options)
        #expect(summary.ok == 6 && summary.failed == 3 && !summary.succeeded)
        #expect(errors.count == 3)
        for (line, text) in [(3, "not valid JSON"), (5, "no such file"), (7, "exceed")] {
            #expect(errors.contains { $0.hasPrefix("\(manifest):\(line): ") && $0.contains(text) }, "line \(line)")
        }
        let results = try readResults(try #require(options.results))
        #expect(results.count == 9)
        #expect(Set(results.compactMap { $0["line"] as? Int }) == Set(1...9))
        for result in results where (result["status"] as? String) == "ok" {
            let output = try #require(result["output"] as? String)
            #expect((result["bytes"] as? Int) == (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int))
            #expect(try PNGDecoder.decode(path: output, maxPixels: 1 << 20).width >= 40)
        }
        #expect(results.filter { ($0["status"] as? String) == "error" }.allSatisfy { $0["error"] is String })
    }

    @Test func shardsTogetherRenderEachJobExactlyOnce() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try writeManifest(Self.jobLines(23), in: folder)
        var seen: [Int: Int] = [:]
        for k in 0..<4 {
            var options = BatchOptions(manifest: manifest)
            options.backend = .cpu
            options.shard = Shard(index: k, count: 4)
            options.results = folder.appendingPathComponent("r\(k).jsonl").path
            let (summary, _) = try run(options)
            #expect(summary.ok == (0..<23).filter { $0 % 4 == k }.count)
            for result in try readResults(try #require(options.results)) {
                seen[result["line"] as? Int ?? 0, default: 0] += 1
            }
        }
        #expect(seen.count == 23)
        #expect(seen.values.allSatisfy { $0 == 1 })
        let out = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path)
        #expect(out.filter { !$0.hasPrefix(".") }.count == 23)
        // Each shard's resume index, a file of its own (issue 71).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out/.glslice-resume").path).count == 4)
    }

    @Test func resumeSkipsMatchingDigestsAndRedoesChangedJobs() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try writeManifest(Self.jobLines(10), in: folder)
        var options = BatchOptions(manifest: manifest)
        options.backend = .cpu
        #expect(try run(options).0.ok == 10)
        options.resume = true
        let again = try run(options).0
        #expect(again.skipped == 10 && again.ok == 0)
        // A damaged output, a changed source and a deleted output are rendered again.
        let out = folder.appendingPathComponent("out")
        try Data("garbage".utf8).write(to: out.appendingPathComponent("0.png"))
        try FileManager.default.removeItem(at: out.appendingPathComponent("1.png"))
        // A tEXt chunk before IEND: same pixels, different file. (Bytes after IEND
        // are never read, so they change nothing; see PNGDecoder.readInput.)
        var texture = try Data(contentsOf: folder.appendingPathComponent("texture.png"))
        let text: [UInt8] = [0, 0, 0, 5] + Array("tEXta\0bcd".utf8) + [0x41, 0xBC, 0x7E, 0x6F] // CRC-32 of "tEXta\0bcd" (zlib.crc32)
        texture.insert(contentsOf: text, at: texture.count - 12)
        try texture.write(to: folder.appendingPathComponent("texture.png"))
        let third = try run(options).0
        // Jobs 2 and 7 use texture.png.
        #expect(third.ok == 4 && third.skipped == 6 && third.failed == 0)
    }
}

final class LockedLines: @unchecked Sendable {
    private var storage: [String] = []
    private let lock = NSLock()
    func append(_ line: String) { lock.withLock { storage.append(line) } }
    var lines: [String] { lock.withLock { storage } }
}
