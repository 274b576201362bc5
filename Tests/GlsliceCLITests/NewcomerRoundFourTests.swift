import Foundation
import Testing

/// Issue 70, what a newcomer meets (round four): four messages that said where, not what to do.
@Suite struct NewcomerRoundFourTests {
    /// `--insets 999` on a @2x source answered "1998,... px" without saying they were points.
    @Test func insetsPastAScaledSourceSayTheyArePoints() throws {
        let result = try glslice(["render", fixtures.appendingPathComponent("button@2x.png").path, "--insets", "999", "--size", "100x40",
                                  "-o", "/dev/null"])
        #expect(result.status == 65 && result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("insets 999,999,999,999 pt at @2x are 1998,1998,1998,1998 px, past the 50x58 px image "
                                       + "(insets are points: each is 2 px here)"), "\(result.stderr)")
    }

    /// An output in a folder that does not exist: the command that makes it, quoted for a shell.
    @Test func aMissingOutputFolderGivesTheCommandThatMakesIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no dir").path
        let result = try glslice(["render", fixtures.appendingPathComponent("panel.png").path, "--pixels", "20x20",
                                  "-o", missing + "/x.png"])
        #expect(result.status == 73 && result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("output folder \(missing) does not exist; make it first (mkdir -p '\(missing)')"), "\(result.stderr)")
    }

    /// `--insets` on a .9.png names `--lattice`, the way to other runs (a manifest names its keys).
    @Test func insetsOnANinePatchNameTheLattice() throws {
        let result = try glslice(["render", fixtures.appendingPathComponent("bubble.9.png").path, "--insets", "3", "--size", "100x40",
                                  "-o", "/dev/null"])
        #expect(result.status == 64 && result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("--insets cannot be given for a .9.png: its markers give its lattice; drop --insets, "
                                       + "or give --lattice to replace the markers' runs"), "\(result.stderr)")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        try #"{"input": "\#(fixtures.appendingPathComponent("bubble.9.png").path)", "output": "a.png", "size": "100x40", "insets": 3}"#
            .write(to: manifest, atomically: true, encoding: .utf8)
        let batch = try glslice(["batch", manifest.path, "--backend", "cpu"])
        #expect(batch.status == 1 && batch.stderr.contains(#""insets" cannot be given for a .9.png: its markers give its lattice; drop "insets", or give "lattice""#),
                "\(batch.stderr)")
    }

    /// A line that is not JSON: where, what could come there, and what is there.
    @Test func aLineThatIsNotJSONSaysWhatWasExpected() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        // A comma left out between "pixels" and "insets": column 42 is the second key's quote.
        try #"{"input": "panel.png", "pixels": "40x40" "insets": 8}"#.write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--backend", "cpu"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"m.jsonl:1: not valid JSON at column 42: expected ',' or '}', found '"insets": 8}'"#), "\(result.stderr)")
    }
}
