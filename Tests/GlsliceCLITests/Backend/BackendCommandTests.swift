import Foundation
import Testing
@testable import GlsliceKit

/// `--backend`, `doctor` and `parity` as a user meets them.
@Suite struct BackendCommandTests {
    /// glvnd with no vendor library: what a machine without EGL drivers looks like.
    let noDrivers = ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent/glslice-no-vendor.json"]
    let panel = fixtures.appendingPathComponent("panel.png").path

    /// 4096² px: `render --backend auto` is the CPU at every size (`BackendUse.renderAutoFigures`).
    /// Why it fell back is said by `doctor`, never on a render; a batch's `auto` on a host without
    /// GL is the CPU farm it always was: a reason, never a warning.
    @Test func autoFallsBackToTheCPUSilentlyInARenderAndABatch() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("p.png").path
        let result = try glslice(["render", panel, "--insets", "8", "--pixels", "4096x4096", "--backend", "auto", "-o", out],
                                 environment: noDrivers)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
        let manifest = folder.appendingPathComponent("jobs.jsonl")
        var lines = ""
        for i in 0..<5 { lines += "{\"input\": \"\(panel)\", \"output\": \"b\(i).png\", \"pixels\": \"40x40\", \"insets\": 8}\n" }
        try Data(lines.utf8).write(to: manifest)
        let batch = try glslice(["batch", manifest.path], environment: noDrivers)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(!batch.stderr.contains("warning"), "\(batch.stderr)")
        #expect(batch.stderr.contains("5 rendered") && batch.stderr.contains(" on cpu"), "\(batch.stderr)")
    }

    /// On a machine that can only have a software GL (no DRM render node, no
    /// NVIDIA device: told from /dev, not from glslice), `auto` takes the CPU
    /// and `doctor` says why; a batch says it once, a render never.
    @Test(.enabled(if: GPUAvailability.softwareOnly, "this machine has a GPU device node: the hardware verdict is tested instead"))
    func autoTakesTheCPUOverASoftwareRasteriser() throws {
        let doctor = try glslice(["doctor"])
        let text = String(decoding: doctor.stdout, as: UTF8.self)
        #expect(doctor.status == 0, "no GL context at all: \(doctor.stderr)")
        #expect(text.contains("--backend auto would take: cpu (") && text.contains("a software rasteriser: rendering on the CPU"), "\(text)")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("p.png").path
        let result = try glslice(["render", panel, "--insets", "8", "--pixels", "4096x4096", "-o", out])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        // A small single render takes the CPU on any machine, without opening GL or a word.
        let small = try glslice(["render", panel, "--insets", "8", "--pixels", "40x40", "-o", out], environment: noDrivers)
        #expect(small.status == 0 && small.stderr.isEmpty, "\(small.stderr)")
        // --backend gpu still draws through it.
        let forced = try glslice(["render", panel, "--insets", "8", "--pixels", "40x40", "--backend", "gpu", "-o", out])
        #expect(forced.status == 0 && forced.stderr.isEmpty, "\(forced.stderr)")
    }

    @Test(.enabled(if: !GPUAvailability.softwareOnly, "no GPU device node here: only a software GL"))
    func autoTakesAHardwareGPU() throws {
        let text = String(decoding: try glslice(["doctor"]).stdout, as: UTF8.self)
        #expect(text.contains("--backend auto would take: gpu ("), "\(text)")
    }

    @Test func gpuWithoutAContextFailsClearly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try glslice(["render", panel, "--insets", "8", "--pixels", "40x40", "--backend", "gpu",
                                  "-o", folder.appendingPathComponent("p.png").path], environment: noDrivers)
        #expect(result.status == 69)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("no usable EGL/OpenGL ES 3 context"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func doctorExplainsAMissingDriver() throws {
        let result = try glslice(["doctor"], environment: noDrivers)
        #expect(result.status == 69)
        let text = String(decoding: result.stdout, as: UTF8.self)
        for hint in ["__EGL_VENDOR_LIBRARY_FILENAMES", "/dev/dri", "egl_vendor.d"] { #expect(text.contains(hint)) }
    }

    @Test func unknownBackend() throws {
        let result = try glslice(["render", panel, "--pixels", "40x40", "--backend", "vulkan", "-o", "/tmp/x.png"])
        #expect(result.status == 64)
        #expect(result.stderrLines.count == 1)
        for word in ["'vulkan'", "--backend", "cpu", "gpu", "auto"] { #expect(result.stderr.contains(word), "\(result.stderr)") }
    }

    /// Batch's `auto` is the CPU on every host (a GPU node was measured slower), and says nothing.
    /// Without a hardware GPU (this machine: llvmpipe at most), batch's `auto` is the CPU, and says nothing.
    @Test func batchAutoIsTheCPUWithoutAHardwareGPU() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let panel = fixtures.appendingPathComponent("panel.png").path
        let manifest = folder.appendingPathComponent("m.jsonl")
        try #"{"input": "\#(panel)", "output": "a.png", "pixels": "40x40", "insets": 8}"#.write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(summary?["backend"] as? String == "cpu", "\(String(decoding: result.stdout, as: UTF8.self))")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let doctor = try glslice(["doctor"])
        let text = String(decoding: doctor.stdout, as: UTF8.self)
        #expect(text.contains("'glslice render --backend auto' takes: cpu at every size"), "\(text)")
        if GPUAvailability.softwareOnly {
            #expect(text.contains("'glslice batch' and 'glslice serve' draw on the CPU"), "\(text)")
        }
    }
}

@Suite(.enabled(if: GPUAvailability.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUCommandTests {
    /// `batch --backend hybrid --stats`: each side's figures, in text and in `--json`'s `sides`,
    /// adding up to the run's outputs; and the files are the CPU's, byte for byte.
    @Test func hybridStatsGiveEachSidesFigures() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let panel = fixtures.appendingPathComponent("panel.png").path
        let manifest = folder.appendingPathComponent("jobs.jsonl")
        var lines = ""
        for i in 0..<24 { lines += "{\"input\": \"\(panel)\", \"output\": \"\(i).png\", \"pixels\": \"\(40 + i * 13)x\(30 + i * 7)\", \"insets\": 8}\n" }
        try Data(lines.utf8).write(to: manifest)
        var files: [String: [Data]] = [:]
        for backend in ["cpu", "hybrid"] {
            let out = folder.appendingPathComponent(backend)
            let json = try glslice(["batch", manifest.path, "--backend", backend, "--out-dir", out.path, "--stats", "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
            let sides = object?["sides"] as? [String: Any]
            let cpu = sides?["cpu"] as? [String: Any], gpu = sides?["gpu"] as? [String: Any]
            for side in [cpu, gpu] {
                for key in ["outputs", "megapixels", "busySeconds", "idleSeconds", "backupsRun", "backupsWon", "calls"] {
                    #expect(side?[key] != nil, "\(backend): \(key) missing from \(String(describing: side))")
                }
            }
            let outputs = (cpu?["outputs"] as? Int ?? -1) + (gpu?["outputs"] as? Int ?? -1)
            #expect(outputs == 24 && object?["rendered"] as? Int == 24, "\(backend): \(String(describing: sides))")
            // 40x30 up to 339x191: the megapixels of both sides are the outputs' (by hand: the sum of w*h).
            let pixels = (0..<24).reduce(0) { $0 + (40 + $1 * 13) * (30 + $1 * 7) }
            let megapixels = (cpu?["megapixels"] as? Double ?? 0) + (gpu?["megapixels"] as? Double ?? 0)
            #expect(abs(megapixels - Double(pixels) / 1e6) < 0.001, "\(megapixels)")
            files[backend] = try (0..<24).map { try Data(contentsOf: out.appendingPathComponent("\($0).png")) }
            try FileManager.default.removeItem(at: out)
            let text = try glslice(["batch", manifest.path, "--backend", backend, "--out-dir", out.path, "--stats"])
            #expect(text.stderr.contains("glslice: cpu: ") && text.stderr.contains("glslice: gpu: ")
                    && text.stderr.contains("backups"), "\(text.stderr)")
        }
        #expect(files["cpu"] == files["hybrid"])
    }

    @Test func gpuRenderMatchesTheCPUForAnExactCopyJob() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outputs: [Data] = []
        for backend in ["cpu", "gpu"] {
            let out = folder.appendingPathComponent("\(backend).png")
            let result = try glslice(["render", fixtures.appendingPathComponent("texture.png").path, "--insets", "6",
                                      "--mode", "tile", "--pixels", "333x222", "--backend", backend, "-o", out.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            outputs.append(try Data(contentsOf: out))
        }
        // k = 1 tiling is exact copies on both backends: the files are byte-identical.
        #expect(outputs[0] == outputs[1])
    }

    /// RENDERING.md §5: one sampling, so every mode and filter (linear blends, space
    /// gaps, rounds, scales 1.5 and 2) gives the same file on both backends, PNG and
    /// WebP, and a batch resumed on the other backend finds nothing to do.
    @Test func aBatchWritesTheSameFilesOnEitherBackendAndResumesAcrossThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines: [String] = []
        let sources = [("texture.png", "6"), ("button@2x.png", "14,12,14,12"), ("shadow.png", "16"), ("bubble.9.png", "0")]
        for (index, mode) in ["stretch", "tile", "round", "space", "repeat"].enumerated() {
            for (sourceIndex, (name, insets)) in sources.enumerated() {
                for (filterIndex, filter) in ["linear", "nearest"].enumerated() {
                    let n = (index * sources.count + sourceIndex) * 2 + filterIndex
                    let format = n % 3 == 0 ? "webp" : "png"
                    let caps = insets == "0" ? "" : #", "insets": "\#(insets)""#
                    lines.append(#"{"input": "\#(fixtures.appendingPathComponent(name).path)", "output": "\#(n).\#(format)", "size": "\#(58 + n * 8)x\#(32 + n * 4)", "scale": \#([1, 1.5, 2][n % 3])\#(caps), "mode": "\#(mode)", "filter": "\#(filter)"}"#)
                }
            }
        }
        let manifest = folder.appendingPathComponent("jobs.jsonl")
        try lines.joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        for backend in ["cpu", "gpu"] {
            let result = try glslice(["batch", manifest.path, "--backend", backend, "--out-dir", folder.appendingPathComponent(backend).path])
            #expect(result.status == 0, "\(result.stderr)")
        }
        var compared = 0
        for line in lines.indices {
            let name = "\(line).\(line % 3 == 0 ? "webp" : "png")"
            let cpu = try Data(contentsOf: folder.appendingPathComponent("cpu/" + name))
            let gpu = try Data(contentsOf: folder.appendingPathComponent("gpu/" + name))
            #expect(cpu == gpu, "\(name) differs between the backends")
            compared += 1
        }
        #expect(compared == 40)
        // What the CPU finished, a GPU node skips, the WebPs too (their digest is in an XMP chunk).
        let resumed = try glslice(["batch", manifest.path, "--backend", "gpu", "--resume", "--out-dir", folder.appendingPathComponent("cpu").path])
        #expect(resumed.status == 0 && resumed.stderr.contains("0 rendered, \(lines.count) skipped"), "\(resumed.stderr)")
    }

    @Test func doctorNamesTheRenderer() throws {
        let result = try glslice(["doctor"])
        #expect(result.status == 0)
        let text = String(decoding: result.stdout, as: UTF8.self)
        for line in ["GL_RENDERER:", "GL_VERSION:  OpenGL ES 3", "Display chosen:", "max renderbuffer"] {
            #expect(text.contains(line))
        }
    }

    @Test func parityCommandPasses() throws {
        let result = try glslice(["parity", "--cases", "60", "--seed", "9"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("parity: pass"))
    }
}

enum GPUAvailability {
    /// No DRM render node and no NVIDIA device: only a software GL can come up.
    static var softwareOnly: Bool {
        let dri = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        let nvidia = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains { $0.hasPrefix("nvidia") && $0.count > 6 && $0.dropFirst(6).allSatisfy(\.isNumber) }
        return !dri.contains { $0.hasPrefix("renderD") } && !nvidia
    }

    static var enabled: Bool {
        if ProcessInfo.processInfo.environment["GLSLICE_REQUIRE_GPU"] == "1" { return true }
        return (try? glslice(["doctor"]).status) == 0
    }
}
