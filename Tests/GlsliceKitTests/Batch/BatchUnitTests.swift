import Foundation
import Testing
@testable import GlsliceKit

func makeFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-farm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `lines` as a manifest next to copies of the fixtures it names.
func writeManifest(_ lines: [String], in folder: URL) throws -> String {
    for name in ["panel.png", "button@2x.png", "texture.png", "shadow.png", "bar.png"] {
        let target = folder.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: target.path) {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: target)
        }
    }
    let path = folder.appendingPathComponent("jobs.jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

func readResults(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
}

@Suite struct ManifestTests {
    @Test func valuesAsOnTheCommandLineOrAsJSON() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeManifest([
            #"{"input": "panel.png", "output": "a.png", "pixels": "200x44", "insets": "8,8,8,8", "scale": 2}"#,
            #"{"input": "panel.png", "output": "/abs/b.png", "pixels": [200, 44], "insets": [8, 8, 8, 8], "scale": "2", "center": false, "mode-x": "tile"}"#,
            #"{"input": "panel.png", "output": "c.png", "size": [10.5, 4], "insets": 8, "source-scale": 1, "filter": "nearest", "compression": "small"}"#,
        ], in: folder)
        let reader = try ManifestReader(path: path, outputFolder: "/out", allowOutside: true)
        var jobs: [ManifestJob] = []
        while let (number, text) = reader.nextLine() { jobs.append(try reader.job(line: number, text: text)) }
        #expect(jobs.count == 3)
        #expect(jobs[0].input == folder.appendingPathComponent("panel.png").path)
        #expect(jobs[0].output == "/out/a.png")
        #expect(jobs[1].output == "/abs/b.png")
        #expect(jobs[0].request.size == .pixels(PixelSize(width: 200, height: 44)))
        #expect(jobs[0].request == jobs[1].request.with { $0.fillCenter = true; $0.modes.x = .auto })
        #expect(jobs[0].request.outputScale == 2)
        #expect(jobs[1].request.fillCenter == false && jobs[1].request.modes == PerAxis(x: .tile, y: .auto))
        #expect(jobs[2].request.size == .points(width: 10.5, height: 4))
        #expect(jobs[2].request.insets == Insets(top: 8, left: 8, bottom: 8, right: 8))
        #expect(jobs[2].request.filter == .nearest && jobs[2].request.compression == .small)
    }

    @Test func badLinesNameTheProblem() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases = [
            ("{not json", "not valid JSON"),
            ("[1, 2]", "JSON object"),
            (#"{"output": "a.png", "pixels": "1x1"}"#, "missing \"input\""),
            (#"{"input": "a.png", "output": "a.png", "pixels": "1x1", "colour": "red"}"#, "unknown key 'colour'"),
            (#"{"input": "a.png", "output": "a.png", "pixles": "1x1"}"#, "unknown key 'pixles' (known: "),
            (#"{"input": "a.png", "output": "a.png", "pixles": "1x1"}"#, "; did you mean 'pixels'?"),
            (#"{"input": "a.png", "output": "a.png", "pixels": "0x1"}"#, "positive"),
            (#"{"input": "a.png", "output": "a.png", "pixels": "1x1", "mode": "zigzag"}"#, "\"mode\" must be one of: stretch, tile, auto, repeat, round, space, got 'zigzag'"),
            (#"{"input": "a.png", "output": "a.png", "pixels": "1x1", "center": 3}"#, "true or false"),
        ]
        let path = try writeManifest(cases.map(\.0), in: folder)
        let reader = try ManifestReader(path: path)
        var line = 0
        while let (number, text) = reader.nextLine() {
            #expect(number == line + 1)
            let expected = cases[line].1
            #expect(throws: GlsliceError.self) { try reader.job(line: number, text: text) }
            do {
                _ = try reader.job(line: number, text: text)
            } catch let error as GlsliceError {
                #expect(error.text(naming: .manifestKey).contains(expected), "line \(number): \(error.message)")
                #expect(error.manifestLine == ManifestLine(manifest: path, number: number))
            }
            line += 1
        }
        #expect(line == cases.count)
    }

    @Test func outputsStayInTheOutputFolderUnlessAllowed() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = ["../../x.png", "/etc/x.png", "a/../../x.png", "a/./../b/../../x.png", // escape
                       "a/../x.png", "./b//c.png", "d/e/../f.png"] // stay inside
        let path = try writeManifest(outputs.map { #"{"input": "p.png", "output": "\#($0)", "pixels": "1x1"}"# }, in: folder)
        let strict = try ManifestReader(path: path, outputFolder: "/out/run")
        var results: [String] = []
        while let (number, text) = strict.nextLine() {
            do { results.append(try strict.job(line: number, text: text).output) } catch let error as GlsliceError {
                #expect(error.message.contains("outside the output folder /out/run"))
                #expect(error.message.contains("--allow-outside-out-dir"))
                results.append("refused")
            }
        }
        #expect(results == ["refused", "refused", "refused", "refused", "/out/run/x.png", "/out/run/b/c.png", "/out/run/d/f.png"])
        let loose = try ManifestReader(path: path, outputFolder: "/out/run", allowOutside: true)
        var allowed: [String] = []
        while let (number, text) = loose.nextLine() { allowed.append(try loose.job(line: number, text: text).output) }
        #expect(allowed.prefix(4) == ["/x.png", "/etc/x.png", "/out/x.png", "/out/x.png"])
    }

    @Test func aLineOverTheLimitIsReportedByNumberAndReadingGoesOn() throws {
        // Before issue 10 each read re-scanned the line from its start: 20 MB took 67 s.
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = #"{"input": "panel.png", "output": "x.png", "pixels": "40x40"}"#
        let long = #"{"input": "panel.png", "output": ""# + String(repeating: "y", count: 3 << 20) + #"", "pixels": "40x40"}"#
        let path = folder.appendingPathComponent("long.jsonl").path
        try [good, long, good, long].joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try ManifestReader(path: path)
        var seen: [(Int, Bool)] = []
        while let (number, text) = reader.nextLine() {
            do { _ = try reader.job(line: number, text: text); seen.append((number, true)) } catch let error as GlsliceError {
                #expect(error.message.contains("longer than 1 MiB"))
                #expect(error.manifestLine == ManifestLine(manifest: path, number: number))
                seen.append((number, false))
            }
        }
        #expect(seen.map(\.0) == [1, 2, 3, 4])
        #expect(seen.map(\.1) == [true, false, true, false])
    }

    @Test func longManifestsStreamInChunks() throws {
        // Lines across the reader's 64 KiB chunks, blank lines and CRLF endings.
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = #"{"input": "panel.png", "output": "x.png", "pixels": "40x40", "insets": "8"}"#
        var text = ""
        for i in 0..<5000 { text += i % 7 == 3 ? "\r\n" : line + (i % 2 == 0 ? "\r\n" : "\n") }
        let path = folder.appendingPathComponent("big.jsonl").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try ManifestReader(path: path)
        var count = 0, last = 0
        while let (number, data) = reader.nextLine() {
            #expect(String(decoding: data, as: UTF8.self) == line)
            count += 1
            last = number
        }
        #expect(count == 5000 - 714)
        #expect(last == 5000)
    }
}

extension RenderRequest {
    func with(_ change: (inout RenderRequest) -> Void) -> RenderRequest {
        var copy = self
        change(&copy)
        return copy
    }
}

@Suite struct ShardTests {
    @Test func parsingAndEnvironment() throws {
        #expect(try Shard(parsing: "3/8") == Shard(index: 3, count: 8))
        for bad in ["8/8", "-1/4", "1", "a/b", "1/0"] {
            #expect(throws: GlsliceError.self) { try Shard(parsing: bad) }
        }
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "2", "JOB_COMPLETIONS": "5"]) == Shard(index: 2, count: 5))
        #expect(try Shard.fromEnvironment([:]) == nil)
        #expect(throws: GlsliceError.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"]) }
        for bad in ["0/0", "5/3", "-1/2"] {
            #expect(throws: GlsliceError.self) { try Shard(parsing: bad) }
            let parts = bad.split(separator: "/")
            #expect(throws: GlsliceError.self) {
                try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": String(parts[0]), "JOB_COMPLETIONS": String(parts[1])])
            }
        }
    }

    /// Round six, finding 7: a bad Kubernetes environment names its variables, not `--shard`.
    @Test func aBadKubernetesEnvironmentNamesItsVariables() {
        func message(_ env: [String: String]) -> String {
            do { _ = try Shard.fromEnvironment(env); return "accepted" } catch { return (error as? GlsliceError)?.message ?? "\(error)" }
        }
        let outside = message(["JOB_COMPLETION_INDEX": "3", "JOB_COMPLETIONS": "2"])
        #expect(outside.contains("JOB_COMPLETION_INDEX is 3, outside 0..<2") && outside.contains("JOB_COMPLETIONS=2") && !outside.contains("shard must be"), "\(outside)")
        #expect(message(["JOB_COMPLETION_INDEX": "x", "JOB_COMPLETIONS": "2"]) == "JOB_COMPLETION_INDEX is 'x', not a whole number")
        #expect(message(["JOB_COMPLETION_INDEX": "0", "JOB_COMPLETIONS": "x"]) == "JOB_COMPLETIONS is 'x', not a whole number")
        #expect(message(["JOB_COMPLETION_INDEX": "0", "JOB_COMPLETIONS": "0"]).hasPrefix("JOB_COMPLETIONS is 0; an Indexed Job has at least 1"))
    }

    /// What Slurm sets for each task of an array, written out by hand.
    static func slurm(_ id: Int, min: Int, max: Int, step: Int, count: Int) -> [String: String] {
        ["SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(min)", "SLURM_ARRAY_TASK_MAX": "\(max)",
         "SLURM_ARRAY_TASK_STEP": "\(step)", "SLURM_ARRAY_TASK_COUNT": "\(count)"]
    }

    @Test func slurmArraysOfEveryRegularShape() throws {
        // --array=1-4: tasks 1, 2, 3, 4 are shards 0…3 of 4 (task 4 used to be refused as 4/4).
        #expect(try (1...4).map { try Shard.fromEnvironment(Self.slurm($0, min: 1, max: 4, step: 1, count: 4)) }
                == (0..<4).map { Shard(index: $0, count: 4) })
        // --array=0-6:2: tasks 0, 2, 4, 6 are shards 0…3 of 4.
        #expect(try [0, 2, 4, 6].map { try Shard.fromEnvironment(Self.slurm($0, min: 0, max: 6, step: 2, count: 4)) }
                == (0..<4).map { Shard(index: $0, count: 4) })
        // --array=0-2: the plain 0-based form.
        #expect(try Shard.fromEnvironment(Self.slurm(2, min: 0, max: 2, step: 1, count: 3)) == Shard(index: 2, count: 3))
        // --array=5-13:4 → 5, 9, 13.
        #expect(try Shard.fromEnvironment(Self.slurm(9, min: 5, max: 13, step: 4, count: 3)) == Shard(index: 1, count: 3))
    }

    /// Junk Slurm numbers at the ends of Int are refused as not a regular range,
    /// never an arithmetic-overflow trap (issue 19: exit 132 with these).
    @Test func slurmNumbersThatWouldOverflowAreRefusedNotTrapped() {
        let junk: [[String: String]] = [
            ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "9223372036854775807", "SLURM_ARRAY_TASK_COUNT": "2"],
            ["SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"],
            ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "9223372036854775807",
             "SLURM_ARRAY_TASK_STEP": "9223372036854775807"],
            ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "-9223372036854775808"],
        ]
        for environment in junk {
            #expect(throws: GlsliceError.self, "\(environment)") { _ = try Shard.fromEnvironment(environment) }
        }
    }

    @Test func irregularAndBrokenSlurmArraysAreRefusedWithAWayOut() throws {
        // --array=3,7,9: MIN 3, MAX 9, COUNT 3, and Slurm reports STEP 1; not a range.
        do {
            _ = try Shard.fromEnvironment(Self.slurm(9, min: 3, max: 9, step: 1, count: 3))
            Issue.record("an irregular list was accepted")
        } catch let error as GlsliceError {
            #expect(error.message.contains("not a regular range") && error.message.contains("--array=0-2"), "\(error.message)")
        }
        // A task ID off the step, below the minimum, or past the count.
        for env in [Self.slurm(3, min: 0, max: 6, step: 2, count: 4), Self.slurm(0, min: 1, max: 4, step: 1, count: 4),
                    Self.slurm(5, min: 1, max: 4, step: 1, count: 4), Self.slurm(1, min: 0, max: 0, step: 1, count: 0)] {
            #expect(throws: GlsliceError.self) { try Shard.fromEnvironment(env) }
        }
        // SLURM_ARRAY_TASK_ID alone: Slurm always sets the rest for an array.
        #expect(throws: GlsliceError.self) { try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "3"]) }
        #expect(throws: GlsliceError.self) { try Shard.fromEnvironment(Self.slurm(1, min: 0, max: 3, step: 1, count: 4).merging(["SLURM_ARRAY_TASK_MIN": "x"]) { $1 }) }
    }

    @Test func theReasonSaysWhere() throws {
        let (shard, reason) = try Shard.choose(option: nil, environment: Self.slurm(4, min: 0, max: 6, step: 2, count: 4))
        #expect(shard == Shard(index: 2, count: 4))
        #expect(reason.contains("SLURM_ARRAY_TASK_ID=4") && reason.contains("(4 − 0) / 2 = 2"), "\(reason)")
        #expect(try Shard.choose(option: "1/3", environment: Self.slurm(4, min: 0, max: 6, step: 2, count: 4)).shard == Shard(index: 1, count: 3))
        #expect(try Shard.choose(option: nil, environment: [:]).shard == .all)
    }
}

/// A digest worked out as the job is prepared is the one worked out when asked, and a job
/// written as another format gets that format's digest, not the one prepared before.
@Suite struct PreparedDigestTests {
    func job(_ format: ImageFormat) throws -> PreparedJob {
        let source = try ResolvedSource.load(input: fixtures.appendingPathComponent("panel.png").path, outputScale: nil, maxPixels: 1 << 20)
        var request = RenderRequest(size: .pixels(PixelSize(width: 120, height: 40)), insets: try Insets(parsing: "8,8,8,8"))
        request.format = format
        return try PreparedJob(request: request, source: source, limits: Limits())
    }

    @Test func preparedDigestIsTheDigestAndFollowsTheFormat() throws {
        var webp = try job(.webp)
        let asked = webp.digest
        webp.prepareDigest()
        #expect(webp.digest == asked && asked.count == 32)
        let png = webp.written(as: .png), fresh = try job(.png)
        #expect(png.digest == fresh.digest && png.digest != asked)
    }
}
