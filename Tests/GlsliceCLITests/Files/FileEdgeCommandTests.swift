import Foundation
import Testing
@testable import GlsliceKit

/// Files and streams at the system's edges, which need more than a catalogue line (issue 10's
/// findings and later rounds'): full devices, FIFOs, shared results files, long and non-UTF-8
/// names, truncated outputs, standard input.
@Suite struct FileEdgeCommandTests {
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

    let panel = fixtures.appendingPathComponent("panel.png").path

    @Test func aCharacterDeviceIsWrittenToNotReplaced() throws {
        // As root, -o /dev/null once renamed a PNG over the device node.
        let result = try glslice(["render", panel, "--insets", "8", "--pixels", "40x40", "--backend", "cpu", "-o", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        var status = stat()
        #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aFIFOIsWrittenToNotReplaced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("out.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        nonisolated(unsafe) var received = Data()
        let finished = DispatchSemaphore(value: 0)
        let reader = Thread {
            defer { finished.signal() }
            let fd = open(fifo, O_RDONLY)
            var chunk = [UInt8](repeating: 0, count: 4096)
            while fd >= 0 {
                let count = read(fd, &chunk, chunk.count)
                if count <= 0 { break }
                received.append(contentsOf: chunk[0..<count])
            }
            close(fd)
        }
        reader.start()
        let result = try glslice(["render", panel, "--insets", "8", "--pixels", "40x40", "--backend", "cpu", "-o", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        // Should glslice never have opened the FIFO, this releases the reader's open.
        let release = open(fifo, O_WRONLY | O_NONBLOCK)
        if release >= 0 { close(release) }
        finished.wait() // also orders the reader's writes to `received` before the reads below
        #expect(try PNGDecoder.decode(data: received, maxPixels: 1 << 20).width == 40)
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aReadOnlyFileIsRefusedAndKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("keep.png").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o444) == 0)
        let result = try glslice(["render", panel, "--insets", "8", "--pixels", "40x40", "--backend", "cpu", "-o", path])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("exists and is read-only"))
        #expect(FileManager.default.contents(atPath: path) == Data("precious".utf8))
    }

    @Test func anOutputNameNearTheLimitIsWrittenAndReplaced() throws {
        // The temporary name was the output's name plus a suffix: over NAME_MAX (255).
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(String(repeating: "n", count: 251) + ".png").path
        for size in ["40x40", "50x40"] { // the second run replaces the first's file
            let result = try glslice(["render", panel, "--insets", "8", "--pixels", size, "--backend", "cpu", "-o", path])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try PNGDecoder.decode(path: path, maxPixels: 1 << 20).width == 50)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
    }

    @Test func resumeRedoesATruncatedOutputAndStaleTemporariesAreSwept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: panel, toPath: folder.appendingPathComponent("panel.png").path)
        let manifest = folder.appendingPathComponent("m.jsonl").path
        try (0..<4).map { #"{"input": "panel.png", "output": "out/\#($0).png", "pixels": "64x64", "insets": 8}"# }
            .joined(separator: "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(try glslice(["batch", manifest, "--backend", "cpu"]).status == 0)
        // A crash mid-write: the head (and its digest) intact, the end missing.
        let cut = folder.appendingPathComponent("out/2.png").path
        let whole = try Data(contentsOf: URL(fileURLWithPath: cut))
        try whole.prefix(whole.count - 20).write(to: URL(fileURLWithPath: cut))
        // What kill -9 leaves in the rename fallback: one stale temporary, and one "in flight" (newer).
        let stale = folder.appendingPathComponent("out/.glslice-AbCdEf.tmp").path
        let fresh = folder.appendingPathComponent("out/.glslice-GhIjKl.tmp").path
        for path in [stale, fresh] { try Data("partial".utf8).write(to: URL(fileURLWithPath: path)) }
        var old = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        var later = [timespec(tv_sec: Int(Date().timeIntervalSince1970) + 3600, tv_nsec: 0),
                     timespec(tv_sec: Int(Date().timeIntervalSince1970) + 3600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, stale, &old, 0) == 0 && utimensat(AT_FDCWD, fresh, &later, 0) == 0)

        let resumed = try glslice(["batch", manifest, "--backend", "cpu", "--resume", "--fsync"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("batch: 1 rendered, 3 skipped, 0 failed"), "\(resumed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cut)) == whole)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }

    /// Runs glslice under `ulimit -v KiB` (a shell sets the limit for it alone).
    func glsliceUnderMemoryLimit(_ kib: Int, _ arguments: [String]) throws -> RunResult {
        let quoted = ([glsliceBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -v \(kib) && exec \(quoted)"])
    }

    /// ASan and TSan reserve terabytes of shadow address space: no `ulimit -v` fits them.
    static let underSanitizer = ProcessInfo.processInfo.environment["GLSLICE_SANITIZER"] != nil

    @Test(.disabled(if: FileEdgeCommandTests.underSanitizer, "a sanitizer's shadow memory cannot run under ulimit -v"))
    func aSourceThatDoesNotFitTheMemoryLimitIsRefusedNotAborted() throws {
        // 7000x7000 is within the 50 Mpx source limit; its pixels need 187 MiB twice over.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = fixtures.appendingPathComponent("bad/solid-7000x7000.png").path
        let result = try glsliceUnderMemoryLimit(300_000, ["render", big, "--pixels", "100x100", "--backend", "cpu",
                                                           "-o", folder.appendingPathComponent("o.png").path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("not enough memory for a 7000x7000 source"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// Issue 19: each 7000² input added about 440 MiB to a preview sheet, and
    /// under `ulimit -v` the process aborted (SIGABRT). The sheet's size is now
    /// checked before it is drawn: against --max-megapixels, then the memory left.
    @Test(.disabled(if: FileEdgeCommandTests.underSanitizer, "a sanitizer's shadow memory cannot run under ulimit -v"))
    func aPreviewSheetTooBigIsRefusedBeforeItIsDrawn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = fixtures.appendingPathComponent("bad/solid-7000x7000.png").path
        let sheet = folder.appendingPathComponent("sheet.png").path
        // Two 7000² sources shown at 1x: a sheet of about 7024 x 17400 px (122 Mpx).
        let overCap = try glslice(["preview", big, big, "--max-megapixels", "100", "-o", sheet])
        #expect(overCap.status == 65, "\(overCap.stderr)")
        #expect(overCap.stderr.firstMatch(of: /a \d+x\d+ px contact sheet is above the limit of 100 Mpx \(--max-megapixels\)/) != nil,
                "\(overCap.stderr)")
        // Under the cap but not under the memory limit: 490 MB of sheet, and a source read again.
        let overMemory = try glsliceUnderMemoryLimit(700_000, ["preview", big, big, "--max-megapixels", "1000", "-o", sheet])
        #expect(overMemory.status == 65, "\(overMemory.stderr)")
        #expect(overMemory.stderr.firstMatch(of: /not enough memory for a \d+x\d+ px contact sheet/) != nil, "\(overMemory.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// Issue 19: `inspect` kept every image-set variant decoded at once. Three
    /// 7000² variants need 187 MiB each; read one at a time they fit where three do not.
    @Test(.disabled(if: FileEdgeCommandTests.underSanitizer, "a sanitizer's shadow memory cannot run under ulimit -v"))
    func inspectReadsImageSetVariantsOneAtATime() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let set = folder.appendingPathComponent("big.imageset")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        let big = fixtures.appendingPathComponent("bad/solid-7000x7000.png")
        var images: [[String: String]] = []
        for scale in 1...3 {
            try FileManager.default.copyItem(at: big, to: set.appendingPathComponent("big@\(scale)x.png"))
            images.append(["filename": "big@\(scale)x.png", "idiom": "universal", "scale": "\(scale)x"])
        }
        try JSONSerialization.data(withJSONObject: ["images": images]).write(to: set.appendingPathComponent("Contents.json"))
        let result = try glsliceUnderMemoryLimit(750_000, ["inspect", set.path]) // all three at once needed about 1,200,000
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("7000x7000"), "\(result.stderr)")
    }

    @Test(.disabled(if: FileEdgeCommandTests.underSanitizer, "a sanitizer's shadow memory cannot run under ulimit -v"))
    func glUnderATightMemoryLimitFallsBackOrSaysWhy() throws {
        // Mesa's swrast_dri.so crashed (SIGSEGV) in eglInitialize with ~200 MiB of address space left.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("o.png").path
        // 4096² px: smaller single renders take the CPU without trying GL at all.
        let auto = try glsliceUnderMemoryLimit(300_000, ["render", panel, "--insets", "8", "--pixels", "4096x4096", "--backend", "auto", "-o", out])
        // `render` falls back without a word (doctor and batch say why); --backend gpu says it.
        #expect(auto.status == 0 && auto.stderr.isEmpty, "\(auto.stderr)")
        #expect(try PNGDecoder.decode(path: out, maxPixels: 1 << 25).width == 4096)
        let gpu = try glsliceUnderMemoryLimit(300_000, ["render", panel, "--insets", "8", "--pixels", "40x40", "--backend", "gpu", "-o", out])
        #expect(gpu.status == 69, "\(gpu.stderr)")
        #expect(gpu.stderr.contains("address-space limit"))
    }

    @Test func standardInputIsReadOnlyUpToIEND() throws {
        // A PNG followed by junk: only the PNG is read (it was read whole: 3 GB of junk took 3.2 GB).
        signal(SIGPIPE, SIG_IGN)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try Data(contentsOf: URL(fileURLWithPath: panel))
        let process = Process()
        process.executableURL = glsliceBinary
        let out = folder.appendingPathComponent("o.png").path
        process.arguments = ["render", "-", "--insets", "8", "--pixels", "40x40", "--backend", "cpu", "-o", out]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = input.fileHandleForWriting.fileDescriptor
        var written = png.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        let junk = [UInt8](repeating: 0xA5, count: 1 << 16)
        while written < 64 << 20 { // stops at EPIPE once glslice is done with its input
            let n = junk.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            written += n
        }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(written < 4 << 20, "glslice read \(written) bytes of a \(png.count)-byte PNG")
        #expect(try PNGDecoder.decode(path: out, maxPixels: 1 << 20).width == 40)
    }

    @Test func anOutputWiderThanAMillionPixelsIsWritten() throws {
        // libpng's default user limit (1,000,000 px a side) failed these after rendering, with exit 73.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("wide.png").path
        let result = try glslice(["render", panel, "--insets", "8", "--pixels", "1000001x1", "--mode", "stretch", "--backend", "cpu", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGDecoder.decode(path: out, maxPixels: 2_000_000)
        #expect(image.width == 1_000_001 && image.height == 1)
    }

    @Test func aNonUTF8FileNameIsRefusedNotMangled() throws {
        // Swift replaced the bad bytes with U+FFFD: glslice wrote "out\u{FFFD}.png" instead.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run(URL(fileURLWithPath: "/bin/sh"),
                             ["-c", #"exec "$0" render "$1" --insets 8 --pixels 9x9 --backend cpu -o "$(printf 'out\377.png')""#,
                              glsliceBinary.path, panel], in: folder)
        let message = result.stderr
        #expect(result.status == 64, "\(message)")
        #expect(message.contains(#"('out\xFF.png') is not valid UTF-8"#), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
