import Foundation
import Testing
@testable import GlsliceKit

/// `--lattice` on a plain PNG says what a `.9.png`'s markers say: the bubble's
/// artwork alone (`bubble.png`) with the runs its markers hold
/// (`Scripts/make-fixtures.py` draws both from one picture) must render the
/// very file the nine-patch renders, on both backends.
@Suite struct LatticeCommandTests {
    let plain = fixtures.appendingPathComponent("bubble.png").path
    let ninePatch = fixtures.appendingPathComponent("bubble.9.png").path
    let runs = "x=8-10,16-18;y=8-10"

    @Test(arguments: ["cpu", "gpu"])
    func aPlainPNGWithRunsRendersTheNinePatchsBytes(backend: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var different: [String] = []
        // Every mode, both filters, a size smaller than the caps, and a @2x output (caps grow).
        let cases: [[String]] = ["stretch", "tile", "repeat", "round", "space", "auto"].flatMap { mode in
            [["--pixels", "160x60", "--mode", mode], ["--pixels", "20x15", "--mode", mode, "--filter", "nearest"],
             ["--size", "90x41", "--scale", "2", "--mode", mode]]
        }
        for (index, options) in cases.enumerated() {
            let a = folder.appendingPathComponent("plain-\(index).png").path
            let b = folder.appendingPathComponent("nine-\(index).png").path
            let fromRuns = try glslice(["render", plain, "--lattice", runs, "--backend", backend, "-o", a] + options)
            let fromMarkers = try glslice(["render", ninePatch, "--backend", backend, "-o", b] + options)
            #expect(fromRuns.status == 0 && fromMarkers.status == 0, "\(fromRuns.stderr) \(fromMarkers.stderr)")
            if try Data(contentsOf: URL(fileURLWithPath: a)) != Data(contentsOf: URL(fileURLWithPath: b)) {
                different.append(options.joined(separator: " "))
            }
        }
        #expect(different.isEmpty, "\(different)")
    }

    /// The manifest key is the flag: a batch line with `lattice` draws the pixels `render --lattice` does.
    @Test func theManifestKeyDrawsWhatTheFlagDraws() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jobs = folder.appendingPathComponent("jobs.jsonl").path
        try (#"{"input": "\#(plain)", "output": "b.png", "lattice": "\#(runs)", "pixels": "120x50", "mode": "tile"}"# + "\n")
            .write(toFile: jobs, atomically: true, encoding: .utf8)
        let batch = try glslice(["batch", jobs, "--backend", "cpu", "--out-dir", folder.path])
        #expect(batch.status == 0, "\(batch.stderr)")
        let single = folder.appendingPathComponent("r.png").path
        let render = try glslice(["render", ninePatch, "--pixels", "120x50", "--mode", "tile", "--backend", "cpu", "-o", single])
        #expect(render.status == 0, "\(render.stderr)")
        let fromBatch = try PNGDecoder.decode(path: folder.appendingPathComponent("b.png").path, maxPixels: 1 << 20)
        let fromRender = try PNGDecoder.decode(path: single, maxPixels: 1 << 20)
        #expect(fromBatch == fromRender)
    }

    @Test func inspectShowsTheRunsAsItShowsANinePatchs() throws {
        let result = try glslice(["inspect", plain, "--lattice", runs])
        #expect(result.status == 0, "\(result.stderr)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("lattice x: 0-8 fixed, 8-10 scalable, 10-16 fixed, 16-18 scalable, 18-26 fixed"), "\(text)")
        #expect(text.contains("lattice y: 0-8 fixed, 8-10 scalable, 10-22 fixed"), "\(text)")
    }

    @Test(arguments: [
        (["--lattice", "x=8-10", "--insets", "2"], Int32(64), "--lattice cannot be given with insets"),
        (["--lattice", "x=8-30"], 65, "--lattice run 8-30 pt along x ends at 30 px, past the 26 px image"),
        (["--lattice", "x=8-10.5"], 65, "is not on whole pixels"),
        (["--lattice", "z=1-2"], 64, "each part names an axis"),
        (["--lattice", "x=3-1"], 64, "a run must end after it starts"),
        (["--lattice", "x=1-3,2-5"], 64, "in order and apart"),
        (["--lattice", "x=1-3,3-5"], 64, "in order and apart"),
        (["--lattice", "x=-1-3"], 64, "must not be negative"),
        (["--lattice", "x=1-2;x=4-5"], 64, "x is given twice"),
        (["--lattice", "x=1"], 64, "each run is START-END"),
    ])
    func badRunsAreRefusedInOneLine(options: [String], code: Int32, words: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try glslice(["render", plain, "--pixels", "100x50", "-o", folder.appendingPathComponent("o.png").path] + options)
        #expect(result.status == code, "\(result.stderr)")
        // A value --lattice cannot be parsed from is the flag's fault: the file is named only where it matters (issue 50).
        // So is --lattice beside --insets, refused as the flags are read since round six (batch refuses it among its defaults).
        let namesFile = code == 65
        #expect(result.stderrLines.count == 1 && result.stderr.contains(words) && result.stderr.contains("bubble.png") == namesFile,
                "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// `--lattice` on a .9.png replaces its markers' runs (what the page's
    /// unsaved marker edits render): the markers' own runs give the file's
    /// bytes, other runs give what the bare artwork (bubble.png) gives with
    /// them in stretch, the nine-patch's mode. Insets beside markers are refused.
    @Test func aNinePatchTakesRunsInPlaceOfItsMarkers() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func render(_ input: String, _ name: String, _ options: [String]) throws -> Data {
            let path = folder.appendingPathComponent(name).path
            let result = try glslice(["render", input, "--pixels", "100x50", "-o", path] + options)
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let markers = try render(ninePatch, "markers.png", [])
        #expect(try render(ninePatch, "same-runs.png", ["--lattice", "x=8-10,16-18;y=8-10"]) == markers)
        let edited = try render(ninePatch, "edited.png", ["--lattice", "x=4-20;y=12-14"])
        #expect(edited != markers)
        #expect(try render(plain, "artwork.png", ["--lattice", "x=4-20;y=12-14", "--mode", "stretch"]) == edited)
        let refused = try glslice(["render", ninePatch, "--insets", "4", "--pixels", "100x50", "-o", "/dev/null"])
        #expect(refused.status == 64)
        // Round four's newcomer: the message names --lattice, the way to other runs.
        #expect(refused.stderr.contains("--insets cannot be given for a .9.png: its markers give its lattice; drop --insets, or give --lattice to replace the markers' runs"),
                "\(refused.stderr)")
    }
}
