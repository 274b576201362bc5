import Foundation
import Testing

/// Issue 50 (what a newcomer meets, round three): each message names the actual
/// cause, with its exit code. Expected words are the catalogue's, written here by hand.
@Suite struct NewcomerMessagesTests {
    /// A bad `--size` is the flag's fault, not the input's: the file is fine and unnamed.
    @Test func aSizeErrorNamesTheOptionNotTheFile() throws {
        let input = fixtures.appendingPathComponent("button@2x.png").path
        let result = try glslice(["render", input, "--size", "-120x44", "-o", "/dev/null"])
        #expect(result.status == 64)
        #expect(result.stderr == "glslice: --size must be positive, got '-120x44'\n", "\(result.stderr)")
    }

    /// A manifest line that is not JSON gives its line and the column where it goes wrong
    /// (1-based): `{"input": "x", oops}` breaks at the `o` of `oops`, column 16; a line
    /// that stops early, one past its end.
    @Test func aJSONErrorGivesItsLineAndColumn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        try [#"{"input": "x", "output": "a.png", "pixels": "9x9"}"#, #"{"input": "x", oops}"#, #"{"input": "x""#]
            .joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--backend", "cpu", "--out-dir", folder.appendingPathComponent("out").path])
        #expect(result.status == 1)
        #expect(result.stderrLines.contains { $0 == "glslice: \(manifest.path):2: not valid JSON at column 16: expected a key in double quotes, found 'oops}'" },
                "\(result.stderr)")
        #expect(result.stderrLines.contains { $0 == "glslice: \(manifest.path):3: not valid JSON at column 14: expected ',' or '}', found the line's end" },
                "\(result.stderr)")
    }

    /// A port another process holds: exit 69, and the way out is `--bind`.
    @Test func aTakenPortNamesBind() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 1) == 0
                && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try glsliceWithin(60, ["serve", "--root", fixtures.path, "--bind", "127.0.0.1:\(port)", "--backend", "cpu"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("cannot serve on 127.0.0.1:\(port): another process is listening there")
                && result.stderr.contains("--bind HOST:PORT"), "\(result.stderr)")
    }

    /// doctor's answer comes first (it was on line 29 of 31): which backend `auto` takes, and
    /// why, then batch's (hybrid on a hardware GPU, else the CPU), then render's, then the
    /// details; without a driver too.
    @Test func doctorSaysItsAnswerFirst() throws {
        for environment in [[:], ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"]] {
            let result = try glslice(["doctor"], environment: environment)
            let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
            #expect(lines.first?.hasPrefix("--backend auto would take: ") == true, "\(lines.prefix(3))")
            #expect(lines.prefix(4).contains { $0.hasPrefix("'glslice batch --backend auto' takes: ") }, "\(lines.prefix(4))")
            #expect(lines.contains("Details:"))
        }
    }

    /// Kubernetes sets only the index: the message says so, and what the Job must add.
    @Test func theKubernetesMessageSaysWhatTheJobMustAdd() throws {
        let manifest = fixtures.appendingPathComponent("jobs.jsonl").path
        let result = try glslice(["batch", manifest, "--print-shard"], environment: ["JOB_COMPLETION_INDEX": "2"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("JOB_COMPLETION_INDEX is set (Kubernetes sets it for an Indexed Job) but JOB_COMPLETIONS is not")
                && result.stderr.contains("add JOB_COMPLETIONS to the Job's env with its spec.completions, or pass --shard K/N"),
                "\(result.stderr)")
    }

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

    /// A source that is no PNG is named for what it is (bytes written by hand: each format's magic).
    @Test(arguments: [("jpeg.png", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01], "a JPEG file, not a PNG"),
                      ("gif.png", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0], "a GIF file, not a PNG"),
                      ("webp.png", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WEBPVP8L".utf8), "a WebP file, not a PNG"),
                      ("empty.png", [], "the file is empty (0 bytes), not a PNG"),
                      ("text.png", Array("hello, world".utf8), "not a PNG file (bad signature)")])
    func aSourceThatIsNoPNGIsNamed(name: String, bytes: [UInt8], words: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        try Data(bytes).write(to: input)
        let result = try glslice(["render", input.path, "--pixels", "10x10", "-o", folder.appendingPathComponent("o.png").path])
        #expect(result.status == 65)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("\(input.path): \(words)"), "\(result.stderr)")
        if !bytes.isEmpty && !words.contains("bad signature") { #expect(result.stderr.contains("save or convert it as PNG")) }
    }

    @Test func anOutDirThatIsAFileIsNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let manifest = folder.appendingPathComponent("m.jsonl")
        try #"{"input": "\#(fixtures.appendingPathComponent("panel.png").path)", "output": "a.png", "pixels": "9x9"}"#
            .write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--out-dir", file.path])
        #expect(result.status == 73)
        #expect(result.stderr.contains("\(file.path): is a file, not a folder: --out-dir names the folder"), "\(result.stderr)")
        #expect(!result.stderr.contains("File exists"))
    }

    @Test func anEmptyManifestSaysItHeldNoJobs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        try "\n\n".write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path])
        #expect(result.status == 0) // an array task whose shard owns no lines has done its part
        #expect(result.stderr.contains("\(manifest.path) held no jobs (each non-blank line is one"), "\(result.stderr)")
        let sharded = try glslice(["batch", manifest.path, "--shard", "2/3"])
        #expect(sharded.stderr.contains("held no jobs for shard 2/3"), "\(sharded.stderr)")
    }

    @Test func aPublicBindSaysItsAddressOnce() throws {
        let result = try glsliceWithin(60, ["serve", "--root", fixtures.path, "--bind", "0.0.0.0:0"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("not 0.0.0.0;") && !result.stderr.contains("(0.0.0.0)"), "\(result.stderr)")
    }

    /// optimize --help's first example shrinks something (its panel example only said "nothing to lose"),
    /// and serve --help's curl asks the server the example before it started (it asked :8080 after a :8081 one).
    @Test func helpExamplesShowWhatTheySay() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let optimize = try glslice(["optimize", fixtures.appendingPathComponent("button@2x.png").path, "--insets", "14,12,14,12",
                                    "-o", folder.appendingPathComponent("small@2x.png").path])
        let said = String(decoding: optimize.stdout, as: UTF8.self)
        #expect(optimize.status == 0 && said.contains("50x58 px -> 49x58 px"), "\(said)")
        let optimizeHelp = String(decoding: try glslice(["optimize", "--help"]).stdout, as: UTF8.self)
        #expect(optimizeHelp.contains("glslice optimize Fixtures/button@2x.png --insets 14,12,14,12"))
        let serveHelp = String(decoding: try glslice(["serve", "--help"]).stdout, as: UTF8.self)
        let curl = try #require(serveHelp.range(of: "curl"))
        let plain = try #require(serveHelp.range(of: "glslice serve --root Fixtures\n"))
        let signed = try #require(serveHelp.range(of: "--bind 127.0.0.1:8081"))
        #expect(plain.upperBound < curl.lowerBound && curl.lowerBound < signed.lowerBound)
        #expect(serveHelp[curl.lowerBound...].prefix(200).contains("127.0.0.1:8080/render/"))
        #expect(!serveHelp.contains("> serve.key"))
    }

    @Test func helpSaysEachDefaultOnceAndEveryExitCode() throws {
        let batch = String(decoding: try glslice(["batch", "--help"]).stdout, as: UTF8.self)
        #expect(!batch.contains("(default 256)"), "\(batch)")
        #expect(batch.contains("(default: 256)"))
        // ArgumentParser wraps the discussion at the terminal's width: compare with spaces.
        let top = String(decoding: try glslice(["--help"]).stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for code in ["0 success", "1 batch", "64 ", "65 ", "66 ", "69 ", "70 ", "73 ", "75 serve", "130 batch"] {
            #expect(top.contains(code), "\(code)")
        }
    }
}
