import Foundation
import Testing
@testable import GlsliceKit

/// Issue 52: `render --backend gpu` encodes on the GPU where its compute encoder takes the
/// output (on llvmpipe only when forced, as `GLSLICE_GPU_ENCODE=1` does), with the CPU's bytes.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct RenderOnGPUTests {
    /// `fixture` rendered by `request` on the GPU (GPU encoding as `gpuEncoding` says) and on the
    /// CPU: what `render --verbose` told of the GPU's, and whether the two files are the same bytes.
    func renderOnBoth(_ fixture: String, _ request: RenderRequest, gpuEncoding: Bool) throws -> (told: [String], same: Bool) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-render-gpu-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = fixtures.appendingPathComponent(fixture).path
        var told: [String] = []
        let gpu = folder.appendingPathComponent("gpu.png").path, cpu = folder.appendingPathComponent("cpu.png").path
        try Render.run(input: input, output: gpu, request: request, backend: .gpu, tell: { told.append($0) }, gpuEncoding: gpuEncoding)
        try Render.run(input: input, output: cpu, request: request, backend: .cpu)
        return (told, try Data(contentsOf: URL(fileURLWithPath: gpu)) == Data(contentsOf: URL(fileURLWithPath: cpu)))
    }

    @Test func renderEncodesOnTheGPUWithTheCPUsBytes() throws {
        let request = RenderRequest(size: .pixels(PixelSize(width: 1200, height: 900)), modes: PerAxis(both: .stretch))
        let on = try renderOnBoth("bar.png", request, gpuEncoding: true)
        #expect(on.told == ["1200x900 drawn and encoded on the GPU (compute shaders)"])
        #expect(on.same)
        // Off, the GPU draws and the CPU encodes: the same bytes again.
        let off = try renderOnBoth("bar.png", request, gpuEncoding: false)
        #expect(off.told == ["1200x900 drawn on the GPU, encoded on the CPU"])
        #expect(off.same)
    }

    /// A 16,000-px-wide RGBA output (too many pixels for a palette: drawn and encoded a strip
    /// at a time) whose top cap rows are 64,001 bytes the match being gathered runs across:
    /// compared a word a step, llvmpipe ran out of loop iterations there and the CPU encoded
    /// it; four words a step past the candidates' reach, the GPU does, with the CPU's bytes.
    @Test func aSixtyFourKilobyteRowEncodesOnTheGPU() throws {
        let request = RenderRequest(size: .pixels(PixelSize(width: 16000, height: 600)), insets: Insets(top: 8, left: 8, bottom: 8, right: 8),
                                    modes: PerAxis(both: .stretch))
        let on = try renderOnBoth("panel.png", request, gpuEncoding: true)
        #expect(on.told == ["16000x600 drawn and encoded on the GPU (compute shaders)"])
        #expect(on.same)
    }
}
