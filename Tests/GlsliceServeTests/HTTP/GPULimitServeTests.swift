import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import NIOCore
import Testing

/// Finding 3 in serve: hybrid drew a source past the GPU's texture limit on
/// whichever side took it, so 12 concurrent requests answered a mix of 200 and
/// 400. Now hybrid draws it on the CPU, every time; `gpu` refuses it with 400
/// naming the limit. And `/metrics` says how many GPU bytes are held.
@Suite(.enabled(if: (try? GPUContext.make()) != nil || ProcessInfo.processInfo.environment["GLSLICE_REQUIRE_GPU"] == "1",
                "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPULimitServeTests {
    @Test func hybridAnswersEveryRequestOnASourcePastTheGPUsLimit() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let limit = try GPUContext.make().limits.maxTextureSize
        let wide = Parity.noise(width: limit + 3616, height: 2)
        try PNGEncoder.write(wide, to: .file(world.root.appendingPathComponent("wide.png").path))
        let reference = world.folder.appendingPathComponent("wide-cpu.png")
        let cli = try runGlslice(["render", world.root.appendingPathComponent("wide.png").path, "--pixels", "300x4", "--insets", "0,8,0,8",
                                  "--max-source-pixels", "100000", "--backend", "cpu", "-o", reference.path])
        #expect(cli.status == 0, "\(cli.stderr)")
        let expected = Array(try Data(contentsOf: reference))
        let limits = Limits(maxSourcePixels: 100_000, maxOutputPixels: ServeOptions.defaultMaxOutputPixels)
        try await withServer(world, backend: .hybrid, workers: 2, limits: limits) { port, _ in
            let answers = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
                for index in 0..<12 {
                    group.addTask {
                        // Distinct sizes, so nothing is coalesced; the first is the reference's.
                        let response = try await get(port, "/render/wide.png?pixels=\(300 + index)x4&insets=0,8,0,8&format=png")
                        return (Int(response.status.code), response.bytes)
                    }
                }
                var all: [(Int, [UInt8])] = []
                for try await answer in group { all.append(answer) }
                return all
            }
            #expect(answers.map(\.0) == [Int](repeating: 200, count: 12), "\(answers.map(\.0)) \(String(decoding: answers[0].1, as: UTF8.self))")
            let first = try await get(port, "/render/wide.png?pixels=300x4&insets=0,8,0,8&format=png")
            #expect(first.bytes == expected)
            #expect(try await metric(port, "glslice_gpu_bytes") != nil)
        }
        try await withServer(world, backend: .gpu, workers: 2, limits: limits) { port, _ in
            let refused = try await get(port, "/render/wide.png?pixels=300x4&insets=0,8,0,8")
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage?.contains("above this GPU's texture limit of \(limit)") == true, "\(refused.text)")
        }
    }
}
