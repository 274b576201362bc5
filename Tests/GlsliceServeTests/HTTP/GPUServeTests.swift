import Foundation
@testable import GlsliceKit
import GlsliceServe
import Hummingbird
import Testing

/// The server's render threads on the GPU backend (llvmpipe in CI): each opens
/// its own context, and answers what `glslice render --backend gpu` writes.
@Suite(.enabled(if: (try? GPUContext.make()) != nil || ProcessInfo.processInfo.environment["GLSLICE_REQUIRE_GPU"] == "1",
                "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUServeTests {
    @Test func gpuThreadsAnswerWhatRenderWrites() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let jobs = [("button@2x.png", ["--size", "90x30", "--insets", "14,12,14,12", "--mode", "tile"], "size=90x30&insets=14,12,14,12&mode=tile"),
                    ("panel.png", ["--pixels", "200x120", "--insets", "8", "--filter", "nearest"], "pixels=200x120&insets=8&filter=nearest")]
        var expected: [[UInt8]] = []
        for (index, (name, flags, _)) in jobs.enumerated() {
            let out = world.folder.appendingPathComponent("gpu-\(index).png")
            let cli = try runGlslice(["render", world.root.appendingPathComponent(name).path] + flags + ["--backend", "gpu", "-o", out.path])
            #expect(cli.status == 0, "\(cli.stderr)")
            expected.append(Array(try Data(contentsOf: out)))
        }
        let frozen = expected
        try await withServer(world, backend: .gpu) { port, server in
            #expect(server.backendDescription.hasPrefix("gpu ("))
            #expect(try await get(port, "/healthz").text.contains("\"backend\":\"gpu ("))
            for (index, (name, _, query)) in jobs.enumerated() {
                let response = try await get(port, "/render/\(name)?\(query)")
                #expect(response.status == .ok)
                #expect(response.bytes == frozen[index], "\(name)")
            }
        }
    }

    /// `--backend hybrid`: the render threads and the GPU thread share one scheduler
    /// (`HybridScheduler`); whichever side drew, each answer is the bytes `glslice render --backend cpu` writes.
    @Test func hybridAnswersTheSameBytesUnderLoad() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let sizes = (0..<12).map { "\(120 + $0 * 10)x\(80 + $0 * 6)" }
        var expected: [[UInt8]] = []
        for (index, size) in sizes.enumerated() {
            let out = world.folder.appendingPathComponent("cpu-\(index).png")
            let cli = try runGlslice(["render", world.root.appendingPathComponent("panel.png").path, "--pixels", size, "--insets", "8",
                                      "--mode", "round", "--backend", "cpu", "-o", out.path])
            #expect(cli.status == 0, "\(cli.stderr)")
            expected.append(Array(try Data(contentsOf: out)))
        }
        let frozen = expected
        try await withServer(world, backend: .hybrid, workers: 2) { port, server in
            #expect(server.backendDescription.hasSuffix("and cpu (hybrid)"), "\(server.backendDescription)")
            try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
                for (index, size) in sizes.enumerated() {
                    group.addTask {
                        let response = try await get(port, "/render/panel.png?pixels=\(size)&insets=8&mode=round&format=png")
                        return (index, response.status == .ok ? response.bytes : [])
                    }
                }
                for try await (index, bytes) in group { #expect(bytes == frozen[index], "\(sizes[index])") }
            }
        }
    }
}
