import Foundation
import Testing
@testable import GlsliceKit

/// Issue 52: `render --backend gpu` encodes on the GPU where its compute encoder takes the
/// output (on llvmpipe only when forced, as `GLSLICE_GPU_ENCODE=1` does), with the CPU's bytes.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct RenderOnGPUTests {
    @Test func renderEncodesOnTheGPUWithTheCPUsBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-render-gpu-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let request = RenderRequest(size: .pixels(PixelSize(width: 1200, height: 900)), modes: PerAxis(both: .stretch))
        let input = fixtures.appendingPathComponent("bar.png").path
        var told: [String] = []
        let gpu = folder.appendingPathComponent("gpu.png").path, cpu = folder.appendingPathComponent("cpu.png").path
        try Render.run(input: input, output: gpu, request: request, backend: .gpu, tell: { told.append($0) }, gpuEncoding: true)
        try Render.run(input: input, output: cpu, request: request, backend: .cpu)
        #expect(told == ["1200x900 drawn and encoded on the GPU (compute shaders)"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: gpu)) == Data(contentsOf: URL(fileURLWithPath: cpu)))
        // Off, the GPU draws and the CPU encodes: the same bytes again.
        told = []
        try Render.run(input: input, output: gpu, request: request, backend: .gpu, tell: { told.append($0) }, gpuEncoding: false)
        #expect(told == ["1200x900 drawn on the GPU, encoded on the CPU"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: gpu)) == Data(contentsOf: URL(fileURLWithPath: cpu)))
    }

    /// A 16,000-px-wide RGBA output (too many pixels for a palette: drawn and encoded a strip
    /// at a time) whose top cap rows are 64,001 bytes the match being gathered runs across:
    /// compared a word a step, llvmpipe ran out of loop iterations there and the CPU encoded
    /// it; four words a step past the candidates' reach, the GPU does, with the CPU's bytes.
    @Test func aSixtyFourKilobyteRowEncodesOnTheGPU() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-render-gpu-wide-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let request = RenderRequest(size: .pixels(PixelSize(width: 16000, height: 600)), insets: Insets(top: 8, left: 8, bottom: 8, right: 8),
                                    modes: PerAxis(both: .stretch))
        let input = fixtures.appendingPathComponent("panel.png").path
        var told: [String] = []
        let gpu = folder.appendingPathComponent("gpu.png").path, cpu = folder.appendingPathComponent("cpu.png").path
        try Render.run(input: input, output: gpu, request: request, backend: .gpu, tell: { told.append($0) }, gpuEncoding: true)
        try Render.run(input: input, output: cpu, request: request, backend: .cpu)
        #expect(told == ["16000x600 drawn and encoded on the GPU (compute shaders)"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: gpu)) == Data(contentsOf: URL(fileURLWithPath: cpu)))
    }
}
