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

    /// doctor says what the GPU-encoding setting does under each backend, in text and JSON:
    /// with `GLSLICE_GPU_ENCODE=yes` on llvmpipe it said "on, forced" while auto encoded on the CPU.
    @Test func doctorSaysWhereGPUEncodingApplies() throws {
        let text = try glslice(["doctor"], environment: ["GLSLICE_GPU_ENCODE": "yes"])
        if text.status == 69, ProcessInfo.processInfo.environment["GLSLICE_REQUIRE_GPU"] != "1" { return } // no GL here
        #expect(text.status == 0, "\(text.stderr)")
        let said = String(decoding: text.stdout, as: UTF8.self)
        #expect(said.contains("GPU encoding: on (forced by GLSLICE_GPU_ENCODE: default and fast PNGs the GPU draws are encoded with compute shaders)"), "\(said)")
        #expect(said.contains("it applies to --backend gpu and hybrid;") && said.contains("--backend cpu encodes on the CPU"), "\(said)")
        let json = try glslice(["doctor", "--json"], environment: ["GLSLICE_GPU_ENCODE": "yes"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let context = try #require(object["context"] as? [String: Any])
        let auto = try #require(object["auto"] as? [String: Any])
        #expect((context["gpu-encoding-reason"] as? String)?.hasPrefix("forced by GLSLICE_GPU_ENCODE") == true)
        let byBackend = try #require(context["gpu-encoding-by-backend"] as? [String: String])
        #expect(byBackend["cpu"] == "cpu" && byBackend["gpu"] == "gpu" && byBackend["hybrid"] == "gpu" && byBackend["auto (render)"] == "cpu")
        // batch's and serve's auto: the GPU's encoder only where auto takes the GPU.
        #expect(byBackend["auto (batch, serve)"] == ((auto["backend"] as? String) == "gpu" ? "gpu" : "cpu"), "\(byBackend)")
        // Off by the variable: the CPU encodes under every backend.
        let off = try glslice(["doctor", "--json"], environment: ["GLSLICE_GPU_ENCODE": "0"])
        let offContext = try #require((try JSONSerialization.jsonObject(with: off.stdout) as? [String: Any])?["context"] as? [String: Any])
        #expect(Set((offContext["gpu-encoding-by-backend"] as? [String: String])?.values.map { $0 } ?? []) == ["cpu"])
        #expect(offContext["gpu-encoding-reason"] as? String == "off by GLSLICE_GPU_ENCODE: the CPU encodes every output")
    }
}
