import Foundation
import Testing
@testable import GlsliceKit

/// `glslice batch` as a farm runs it: killed and resumed, bad lines, exit codes.
@Suite struct BatchCommandTests {
    /// A manifest of `count` jobs big enough that a batch takes a while.
    func manifest(_ count: Int, in folder: URL) throws -> String {
        let sources = [("panel.png", "8"), ("button@2x.png", "14,12,14,12"), ("texture.png", "6"), ("shadow.png", "16")]
        for (name, _) in sources {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let modes = ["auto", "stretch", "tile", "repeat", "round", "space"]
        let lines = (0..<count).map { i in
            let (name, insets) = sources[i % sources.count]
            return #"{"input": "\#(name)", "output": "\#(i).png", "insets": "\#(insets)", "pixels": "\#(300 + i % 97)x\#(200 + i % 53)", "mode": "\#(modes[i % 6])", "scale": \#(1 + i % 3)}"#
        }
        let path = folder.appendingPathComponent("jobs.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func pngNames(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") && !$0.hasPrefix(".") }.sorted()
    }

    @Test func killedThenResumedIsByteIdenticalToAnUninterruptedRun() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = try manifest(240, in: folder)
        let reference = folder.appendingPathComponent("reference"), killed = folder.appendingPathComponent("killed")

        let full = try glslice(["batch", jobs, "--backend", "cpu", "--out-dir", reference.path])
        #expect(full.status == 0, "\(full.stderr)")

        // Start again elsewhere and kill -9 once some outputs exist.
        let process = Process()
        process.executableURL = glsliceBinary
        process.arguments = ["batch", jobs, "--backend", "cpu", "--jobs", "1", "--out-dir", killed.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, ((try? pngNames(in: killed).count) ?? 0) < 20 { usleep(2000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let survivors = try pngNames(in: killed)
        #expect(survivors.count >= 20 && survivors.count < 240, "killed after \(survivors.count) outputs")
        // Nothing partial under an output name: every PNG there decodes whole.
        for name in survivors {
            #expect((try? PNGDecoder.decode(path: killed.appendingPathComponent(name).path, maxPixels: 1 << 22)) != nil, "\(name)")
        }

        let resumed = try glslice(["batch", jobs, "--backend", "cpu", "--out-dir", killed.path, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("skipped"))
        let names = try pngNames(in: reference)
        #expect(names.count == 240)
        #expect(try pngNames(in: killed) == names)
        var different: [String] = []
        for name in names where try Data(contentsOf: reference.appendingPathComponent(name))
            != Data(contentsOf: killed.appendingPathComponent(name)) { different.append(name) }
        #expect(different.isEmpty, "\(different.prefix(5))")
    }

    @Test func badLinesGiveOneLineEachAndExitOne() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = try manifest(3, in: folder)
        try ((try String(contentsOfFile: jobs, encoding: .utf8)) + "{broken\n" + #"{"input": "gone.png", "output": "g.png", "pixels": "5x5"}"#
             + "\n").write(toFile: jobs, atomically: true, encoding: .utf8)
        let results = folder.appendingPathComponent("r.jsonl").path
        let result = try glslice(["batch", jobs, "--backend", "cpu", "--results", results])
        #expect(result.status == 1)
        let lines = result.stderrLines
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.contains { $0.contains("jobs.jsonl:4: not valid JSON") })
        #expect(lines.contains { $0.contains("jobs.jsonl:5: ") && $0.contains("gone.png: no such file") })
        #expect(lines.last?.hasPrefix("glslice: batch: 3 rendered, 0 skipped, 2 failed") == true)
        #expect(try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").count == 5)
    }

    /// A value echoed in a message cannot forge a `glslice:` line or drive the
    /// terminal: newlines and escape sequences are written as escapes (issue 19).
    @Test func controlCharactersInManifestValuesAreEscapedInMessages() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = try manifest(1, in: folder)
        let forged = #"{"input": "panel.png", "output": "f.png", "pixels": "1x\nglslice: batch: 9 rendered, 0 skipped, 0 failed\u001b[2J"}"#
        try ((try String(contentsOfFile: jobs, encoding: .utf8)) + forged + "\n").write(toFile: jobs, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", jobs, "--backend", "cpu"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 2, "\(result.stderr)") // the bad line and the summary, nothing forged
        #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B })
        #expect(result.stderrLines.first?.contains(#"got '1x\nglslice: batch: 9 rendered"#) == true, "\(result.stderr)")
        #expect(result.stderrLines.last?.hasPrefix("glslice: batch: 1 rendered, 0 skipped, 1 failed") == true)
    }

    /// A nine-patch's padding and optical bounds reach the results file, on the
    /// first run and on a resumed one; other sources record null.
    @Test func resultsRecordNinePatchBounds() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = folder.appendingPathComponent("jobs.jsonl").path
        let optical = fixtures.appendingPathComponent("android/optical.9.png").path
        let compiled = fixtures.appendingPathComponent("android/optical.compiled.png").path
        let panel = fixtures.appendingPathComponent("panel.png").path
        try ([optical, compiled, panel].enumerated().map { #"{"input": "\#($1)", "output": "\#($0).png", "pixels": "40x30"}"# }
             .joined(separator: "\n") + "\n").write(toFile: jobs, atomically: true, encoding: .utf8)
        for round in 0..<2 {
            let results = folder.appendingPathComponent("r\(round).jsonl").path
            let result = try glslice(["batch", jobs, "--backend", "cpu", "--resume", "--out-dir", folder.appendingPathComponent("o").path,
                                      "--results", results])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n")
                .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .sorted { ($0["line"] as? Int ?? 0) < ($1["line"] as? Int ?? 0) }
            #expect(lines.count == 3)
            // Bottom "rr kkkk r" and right " kkk r" of the fixture, worked out in AndroidNinePatchTests.
            let expected: [String: [String: Int]] = ["padding": ["top": 1, "left": 3, "bottom": 2, "right": 2],
                                                     "optical": ["top": 0, "left": 2, "bottom": 1, "right": 1]]
            #expect(lines[0]["nine-patch"] as? [String: [String: Int]] == expected, "round \(round): \(lines[0])")
            // A compiled source (named .png) is known only once decoded: recorded when rendered.
            if round == 0 { #expect(lines[1]["nine-patch"] as? [String: [String: Int]] == expected) }
            #expect(lines[2]["nine-patch"] is NSNull)
            #expect(lines.allSatisfy { $0["status"] as? String == (round == 0 ? "ok" : "skipped") })
        }
    }

    @Test func shardFromKubernetesEnvironment() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = try manifest(10, in: folder)
        let result = try glslice(["batch", jobs, "--backend", "cpu", "--out-dir", folder.appendingPathComponent("o").path],
                                 environment: ["JOB_COMPLETION_INDEX": "1", "JOB_COMPLETIONS": "3"])
        #expect(result.status == 0)
        #expect(try pngNames(in: folder.appendingPathComponent("o")) == ["1.png", "4.png", "7.png"])
    }

    /// `--print-shard` under a 1-based Slurm array renders nothing and says why.
    @Test func printShardExplainsAndRendersNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = try manifest(4, in: folder)
        let out = folder.appendingPathComponent("o")
        let env = ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4",
                   "SLURM_ARRAY_TASK_STEP": "1", "SLURM_ARRAY_TASK_COUNT": "4"]
        let result = try glslice(["batch", jobs, "--out-dir", out.path, "--print-shard"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.hasPrefix("shard 3/4 (from Slurm: SLURM_ARRAY_TASK_ID=4, MIN=1"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // The same task renders only its share: line 4 (index 3).
        let run = try glslice(["batch", jobs, "--backend", "cpu", "--out-dir", out.path], environment: env)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try pngNames(in: out) == ["3.png"])
    }

    @Test func missingManifest() throws {
        let result = try glslice(["batch", "/nonexistent/jobs.jsonl"])
        #expect(result.status == 66)
        #expect(result.stderrLines.count == 1)
    }

    /// Finding 7: a bad Kubernetes environment said "shard must be K/N ..., got '3/2'", as if
    /// `--shard` had been given. Now each message names the variable.
    @Test func aBadKubernetesEnvironmentNamesItsVariables() throws {
        let panel = fixtures.appendingPathComponent("panel.png").path
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
}
