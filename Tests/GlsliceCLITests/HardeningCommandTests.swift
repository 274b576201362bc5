import Foundation
import Testing
import GlsliceKit

/// Issue 10's findings that need more than a catalogue line: full devices,
/// FIFOs, shared results files.
@Suite struct HardeningCommandTests {
    /// Runs glslice with stderr going to `/dev/full`: every write to it fails with ENOSPC.
    func runWithFullStderr(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = glsliceBinary
        process.arguments = arguments
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func anErrorWrittenToAFullStderrStillExitsWithItsCode() throws {
        // Before: FileHandle.write trapped (exit 132) when stderr was full.
        #expect(try runWithFullStderr(["render", "/no/such.png", "--pixels", "10x10", "-o", "/tmp/x.png"]) == 66)
        #expect(try runWithFullStderr(["render", "--pixels", "-5x5"]) == 64)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        try #"{"input": "nope.png", "output": "a.png", "pixels": "4x4"}"#.write(to: manifest, atomically: true, encoding: .utf8)
        #expect(try runWithFullStderr(["batch", manifest.path, "--backend", "cpu"]) == 1)
    }

    @Test func resultsOnAFullDiskAreReportedNotACrash() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("panel.png"), to: folder.appendingPathComponent("panel.png"))
        let manifest = folder.appendingPathComponent("m.jsonl")
        try (0..<3).map { #"{"input": "panel.png", "output": "\#($0).png", "pixels": "40x40", "insets": 8}"# }
            .joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--backend", "cpu", "--results", "/dev/full"])
        #expect(result.status == 1, "\(result.stderr)")
        let complaints = result.stderrLines.filter { $0.contains("/dev/full: cannot write the results file (No space left on device)") }
        #expect(complaints.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("batch: 3 rendered, 0 skipped, 0 failed"))
    }

    @Test func twoBatchesSharingAResultsFileKeepEveryLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("panel.png"), to: folder.appendingPathComponent("panel.png"))
        let count = 300
        for name in ["a", "b"] {
            try (0..<count).map { #"{"input": "panel.png", "output": "\#(name)\#($0).png", "pixels": "24x24", "insets": 8}"# }
                .joined(separator: "\n").write(to: folder.appendingPathComponent("\(name).jsonl"), atomically: true, encoding: .utf8)
        }
        let results = folder.appendingPathComponent("results.jsonl").path
        // Seed the file so neither run truncates it (--resume appends).
        try #"{"line": 0, "status": "ok"}"#.appending("\n").write(toFile: results, atomically: true, encoding: .utf8)
        let runs = ["a", "b"].map { name in
            let process = Process()
            process.executableURL = glsliceBinary
            process.arguments = ["batch", folder.appendingPathComponent("\(name).jsonl").path, "--backend", "cpu", "--jobs", "1",
                                 "--results", results, "--resume"]
            process.standardError = FileHandle.nullDevice
            return process
        }
        for run in runs { try run.run() }
        for run in runs { run.waitUntilExit() }
        let lines = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 + 2 * count)
        let parsed = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(parsed.count == lines.count, "a line was torn")
    }

    @Test func aManifestOnAFIFOIsNotCountedAhead() throws {
        // The progress bar's count once read a pipe or FIFO to its end (dropping every
        // job) or blocked on it forever. Now only a regular file is counted.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("jobs.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(try BatchRunner.countJobsIfRereadable(BatchOptions(manifest: fifo)) == nil)
        let file = folder.appendingPathComponent("jobs.jsonl").path
        try "{}\n\n{}\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try BatchRunner.countJobsIfRereadable(BatchOptions(manifest: file)) == 2)
    }
}
