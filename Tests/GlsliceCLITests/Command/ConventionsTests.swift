import Foundation
import Testing
@testable import GlsliceKit

/// The command-line conventions a new user expects: `-`, completion, progress,
/// Ctrl-C, `--json` and "did you mean" (`--help` examples: HelpExamplesTests).
@Suite struct ConventionsTests {
    func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }

    /// The PNG glslice wrote on stdout.
    func decoded(_ data: Data) throws -> StraightImage { try PNGDecoder.decode(data: data, maxPixels: 1 << 24) }

    // MARK: A crash found by a new user

    /// Foundation's `deletingLastPathComponent` traps on one-character paths;
    /// `inspect a` and `inspect -` used to die with SIGILL (exit 132).
    @Test func inspectTakesAOneLetterNameAndStandardInput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: fixture("panel.png"), to: folder.appendingPathComponent("a"))
        let named = try glslice(["inspect", "a", "--insets", "8"], in: folder)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(String(decoding: named.stdout, as: UTF8.self).hasPrefix("a: png, 17x17 px"))
        let piped = try glslice(["inspect", "-", "--insets", "8"], stdin: fixture("panel.png"))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(String(decoding: piped.stdout, as: UTF8.self).contains("17x17 px"))
        #expect(String(decoding: piped.stdout, as: UTF8.self).contains("no other scale found"))
    }

    // MARK: `-`

    @Test func renderReadsAndWritesDash() throws {
        let result = try glslice(["render", "-", "--insets", "14,12,14,12", "--size", "120x44", "--source-scale", "2", "-o", "-"],
                                 stdin: fixture("button@2x.png"))
        #expect(result.status == 0, "\(result.stderr)")
        let image = try decoded(result.stdout)
        #expect(image.width == 240 && image.height == 88)
        // Read from stdin at --source-scale 2, its caps are copied as the file's own.
        #expect(try topLeftCapMatches(image, source: fixture("button@2x.png").path, width: 24, height: 28))
    }

    @Test func optimizeReadsAndWritesDash() throws {
        let result = try glslice(["optimize", "-", "--insets", "8", "-o", "-"], stdin: fixture("panel.png"))
        #expect(result.status == 0, "\(result.stderr)")
        // 8 px caps and a 1-px centre: already as small as it renders the same, so an unchanged copy,
        // the input's own bytes.
        #expect(result.stdout == (try Data(contentsOf: fixture("panel.png"))))
        // The report goes to stderr, so stdout is the PNG alone.
        #expect(result.stderr.contains("renders the same in"))
    }

    @Test func optimizeWritesANinePatchToDashWithItsMarkers() throws {
        let result = try glslice(["optimize", fixture("bubble.9.png").path, "-o", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        // A raw .9.png keeps its 1-px border: wider than the artwork by 2.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("small.9.png")
        try result.stdout.write(to: file)
        let reread = try glslice(["inspect", file.path, "--json"])
        #expect(reread.status == 0, "\(reread.stderr)")
        let json = try JSONSerialization.jsonObject(with: reread.stdout) as? [String: Any]
        #expect(json?["kind"] as? String == "nine-patch")
    }

    @Test func anImageSetCannotGoToStandardOutput() throws {
        let result = try glslice(["optimize", fixture("button.imageset").path, "-o", "-"])
        #expect(result.status == 64)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("standard output"))
        #expect(result.stdout.isEmpty)
    }

    @Test func previewReadsAndWritesDash() throws {
        let result = try glslice(["preview", "-", "--insets", "8", "-o", "-"], stdin: fixture("panel.png"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try decoded(result.stdout).width > 17)
        let twice = try glslice(["preview", "-", "-", "-o", "-"], stdin: fixture("panel.png"))
        #expect(twice.status == 64 && twice.stderr.contains("more than once"))
    }

    @Test func compareReadsDashAndWritesTheHeatMapToDash() throws {
        let result = try glslice(["compare", "-", fixture("panel.png").path, "--diff", "-"], stdin: fixture("panel.png"))
        #expect(result.status == 0, "\(result.stderr)")
        let heat = try decoded(result.stdout)
        #expect(heat.width == 17 && heat.height == 17)
        // Equal images: every pixel the one dark grey of "equal" (r = g = b, below mid-grey, opaque).
        let first = Array(heat.rgba.pixels[0..<4])
        #expect(first[0] == first[1] && first[1] == first[2] && first[0] < 128 && first[3] == 255, "\(first)")
        #expect(stride(from: 0, to: heat.rgba.pixels.count, by: 4).allSatisfy { Array(heat.rgba.pixels[$0..<$0 + 4]) == first })
        // The summary goes to stderr beside the PNG.
        #expect(result.stderr.contains("max difference 0"))
    }

    @Test func batchReadsItsManifestFromDashAndWritesResultsToDash() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("jobs.jsonl")
        // Relative inputs resolve against the current folder (Fixtures here).
        try Data("""
        {"input": "panel.png", "output": "p.png", "pixels": "40x30", "insets": 8}
        {"input": "missing.png", "output": "m.png", "pixels": "40x30"}

        """.utf8).write(to: manifest)
        let out = folder.appendingPathComponent("out").path
        let result = try glslice(["batch", "-", "--out-dir", out, "--backend", "cpu", "--results", "-"], in: fixtures, stdin: manifest)
        #expect(result.status == 1, "\(result.stderr)")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        let statuses = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .sorted { ($0?["line"] as? Int ?? 0) < ($1?["line"] as? Int ?? 0) }.map { $0?["status"] as? String }
        #expect(statuses == ["ok", "error"])
        #expect(result.stderr.contains("<stdin>:2"), "\(result.stderr)")
        #expect(try PNGDecoder.decode(path: out + "/p.png", maxPixels: 1 << 20).width == 40)
    }

    // MARK: A nine-patch on standard input

    @Test func aNinePatchOnStandardInputIsReadWithTheFlagAndWarnedAboutWithout() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func render(_ input: String, _ extra: [String], stdin: URL? = nil) throws -> (RunResult, Data) {
            let output = folder.appendingPathComponent(UUID().uuidString + ".png")
            let result = try glslice(["render", input, "--pixels", "160x60", "--backend", "cpu", "-o", output.path] + extra, stdin: stdin)
            return (result, (try? Data(contentsOf: output)) ?? Data())
        }
        let (named, byName) = try render(fixture("bubble.9.png").path, [])
        #expect(named.status == 0 && named.stderr.isEmpty)
        let (flagged, withFlag) = try render("-", ["--nine-patch"], stdin: fixture("bubble.9.png"))
        #expect(flagged.status == 0 && flagged.stderr.isEmpty, "\(flagged.stderr)")
        #expect(withFlag == byName)
        let (plain, withoutFlag) = try render("-", [], stdin: fixture("bubble.9.png"))
        #expect(plain.status == 0)
        #expect(plain.stderrLines.count == 1 && plain.stderr.contains("warning") && plain.stderr.contains("--nine-patch"))
        #expect(withoutFlag != byName && !withoutFlag.isEmpty)
        // A plain PNG on stdin gets no warning.
        let (button, _) = try render("-", ["--insets", "14,12,14,12", "--source-scale", "2"], stdin: fixture("button@2x.png"))
        #expect(button.status == 0 && button.stderr.isEmpty, "\(button.stderr)")
    }

    // MARK: Progress and Ctrl-C

    /// A manifest of `count` small jobs of the panel, in `folder`.
    func manifest(in folder: URL, count: Int, pixels: String = "300x300") throws -> URL {
        let url = folder.appendingPathComponent("jobs.jsonl")
        let panel = fixture("panel.png").path
        var text = ""
        for i in 0..<count { text += "{\"input\":\"\(panel)\",\"output\":\"p\(i).png\",\"pixels\":\"\(pixels)\",\"insets\":8}\n" }
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Through `script`, a pseudo-terminal `columns` wide: every repaint of the
    /// bar is shorter than the terminal (so it never wraps and scrolls) and is
    /// drawn in place with `\r`, with one newline in all, after the summary.
    @Test(arguments: [40, 120]) func theProgressBarFitsTheTerminal(columns: Int) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = try manifest(in: folder, count: 300)
        let command = "stty cols \(columns); '\(glsliceBinary.path)' batch '\(jobs.path)' --jobs 1 --backend cpu --out-dir '\(folder.path)/out'"
        let result = try run(URL(fileURLWithPath: "/usr/bin/script"), ["-q", "-e", "-c", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        let typescript = String(decoding: result.stdout, as: UTF8.self).replacingOccurrences(of: "\u{1B}[K", with: "")
        let repaints = typescript.split(whereSeparator: { $0 == "\r" || $0 == "\n" }).filter { $0.contains("/300") }
        #expect(repaints.count >= 2, "\(typescript.prefix(400))")
        for repaint in repaints { #expect(repaint.count < columns, "\(repaint.count) columns: \(repaint)") }
        #expect(repaints.last?.hasPrefix("[") == true, "the bar is drawn when there is room")
        #expect(typescript.filter { $0 == "\n" || $0 == "\r\n" }.count == 1, "\(typescript.suffix(300))")
        #expect(typescript.contains("batch: 300 rendered"))
    }

    /// Ctrl-C: exit 130, a line saying how many outputs were written (exactly the
    /// files on disk: issue 50 saw 487 said where 488 existed), and a command
    /// line that, run as printed, finishes the batch.
    @Test func anInterruptedBatchSaysWhatWasDoneAndHowToFinish() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 20_000
        let jobs = try manifest(in: folder, count: count, pixels: "40x40")
        let out = folder.appendingPathComponent("out")
        let process = Process()
        process.executableURL = glsliceBinary
        process.arguments = ["batch", jobs.path, "--jobs", "1", "--backend", "cpu", "--out-dir", out.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Interrupt once a few outputs exist.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, ((try? FileManager.default.contentsOfDirectory(atPath: out.path).count) ?? 0) < 20 {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(stderr)")
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(stderr)")
        let done = lines.first.flatMap { $0.split(separator: " ").dropFirst(3).first }.flatMap { Int($0) }
        #expect(lines.first?.hasPrefix("glslice: interrupted after ") == true)
        #expect((done ?? 0) >= 20 && (done ?? count) < count, "\(stderr)")
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }.count
        #expect(done == onDisk, "said \(done ?? -1), found \(onDisk): \(stderr)")
        let marker = "to finish the batch, run: "
        guard let last = lines.last, let range = last.range(of: marker) else {
            Issue.record("no resume line: \(stderr)")
            return
        }
        let resume = String(last[range.upperBound...])
        #expect(resume.hasSuffix(" --resume"))
        // Every output already named is whole, and the printed command finishes the job.
        let finished = try run(URL(fileURLWithPath: "/bin/bash"), ["-c", resume])
        #expect(finished.status == 0, "\(finished.stderr)")
        // At least the jobs counted as done are skipped, not drawn again.
        let skipped = finished.stderr.components(separatedBy: " skipped").first?.split(separator: " ").last.flatMap { Int($0) }
        #expect((skipped ?? -1) >= (done ?? count), "\(finished.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }
        #expect(written.count == count)
    }

    // MARK: --json

    @Test func compareDoctorParityAndBatchPrintJSON() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func object(_ result: RunResult) -> [String: Any]? { try? JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] }

        let compare = try glslice(["compare", fixture("button@2x.png").path, fixture("button@2x.png").path, "--json"])
        #expect(compare.status == 0, "\(compare.stderr)")
        let c = object(compare)
        #expect(c?["differ"] as? Bool == false && c?["max-difference"] as? Int == 0)
        #expect(c?["width"] as? Int == 50 && c?["height"] as? Int == 58) // file(1) says 50 x 58

        let jobs = try manifest(in: folder, count: 3, pixels: "40x40")
        let batch = try glslice(["batch", jobs.path, "--out-dir", folder.appendingPathComponent("out").path, "--backend", "cpu",
                                 "--json", "--stats"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let b = object(batch)
        #expect(b?["rendered"] as? Int == 3 && b?["failed"] as? Int == 0 && b?["succeeded"] as? Bool == true)
        #expect((b?["stages"] as? [[String: Any]])?.first?["stage"] as? String == "prepare")
        // On the CPU every stage is timed on both clocks: its threads' CPU time, never more than their busy time
        // where no helper thread compresses (40 x 40 outputs are one piece).
        for stage in b?["stages"] as? [[String: Any]] ?? [] {
            let busy = stage["seconds"] as? Double ?? -1, cpu = stage["cpuSeconds"] as? Double ?? -1
            #expect(cpu >= 0 && cpu <= busy + 0.001, "\(stage)")
        }

        let doctor = try glslice(["doctor", "--json"])
        let d = object(doctor)
        #expect(d?["client-extensions"] is [String] && d?["devices"] is [[String: Any]], "\(doctor.stderr)")
        let mustHaveGPU = ProcessInfo.processInfo.environment["GLSLICE_REQUIRE_GPU"] == "1"
        if mustHaveGPU || doctor.status == 0 {
            #expect(doctor.status == 0, "\(doctor.stderr)")
            let context = d?["context"] as? [String: Any]
            #expect((context?["renderer"] as? String)?.isEmpty == false)
            #expect(["cpu", "gpu"].contains((d?["auto"] as? [String: Any])?["backend"] as? String ?? ""))
        } else {
            #expect(doctor.status == 69)
        }

        if doctor.status == 0 {
            let parity = try glslice(["parity", "--cases", "5", "--json"])
            #expect(parity.status == 0, "\(parity.stderr)")
            let p = object(parity)
            #expect(p?["cases"] as? Int == 5 && p?["passed"] as? Bool == true && (p?["pixels"] as? Int ?? 0) > 0)
        }
    }

    // MARK: Completion and typos

    /// The generated bash completion, sourced and run as bash runs it on Tab
    /// (the function gets the command, the current word and the one before).
    @Test func bashCompletionCompletesFilePaths() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["button@2x.png", "bubble.9.png", "other.txt"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        let script = try glslice(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let scriptFile = folder.appendingPathComponent("glslice.bash")
        try script.stdout.write(to: scriptFile)
        func complete(_ line: String) throws -> [String] {
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(separator: " ")
            let bash = """
            source '\(scriptFile.path)'
            COMP_WORDS=(\(words)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
            COMPREPLY=(); _glslice glslice "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf '%s\\n' "${COMPREPLY[@]}"
            """
            let result = try run(URL(fileURLWithPath: "/bin/bash"), ["-c", bash], in: folder)
            return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
        }
        #expect(try complete("glslice render bu") == ["bubble.9.png", "button@2x.png"])
        #expect(try complete("glslice render button@2x.png -o o") == ["other.txt"])
        #expect(try complete("glslice inspect butt") == ["button@2x.png"])
        #expect(try complete("glslice batch ot") == ["other.txt"])
    }

    @Test func aMistypedCommandGetsDidYouMean() throws {
        let typo = try glslice(["rendr", "x.png"])
        #expect(typo.status == 64)
        #expect(typo.stderr == "glslice: unknown command 'rendr'; did you mean 'render'?\n")
        let unknown = try glslice(["paint"])
        #expect(unknown.status == 64 && unknown.stderr.contains("commands: render, batch"))
    }
}
