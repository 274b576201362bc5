import Foundation
import Testing
@testable import GlsliceKit

/// The GPU batch path (shelf-packed atlases, one readback per atlas, with and
/// without the pixel-pack ring) gives the CPU's pixels within docs/RENDERING.md §5.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUBatchTests {
    @Test(arguments: [false, true])
    func atlasOutputsMatchTheCPU(ring: Bool) throws {
        _ = try GPUTestSupport.backend() // records the failure when a GPU is required and absent
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = BatchTests.jobLines(60)
        // One output too big for an atlas goes through the band renderer.
        lines.append(#"{"input": "texture.png", "output": "out/big.png", "insets": "6", "pixels": "2100x40", "mode": "round"}"#)
        let manifest = try writeManifest(lines, in: folder)
        var summaries: [BatchSummary] = []
        for backend in [BackendChoice.cpu, .gpu] {
            var options = BatchOptions(manifest: manifest)
            options.backend = backend
            options.outputFolder = folder.appendingPathComponent(backend.rawValue).path
            options.pixelPackRing = ring
            summaries.append(try BatchRunner(options: options, onError: { Issue.record("\($0)") }).run())
        }
        #expect(summaries.map(\.ok) == [61, 61])
        #expect(summaries[1].backend.hasPrefix("gpu"))
        var worst = 0
        for name in (0..<60).map({ "out/\($0).png" }) + ["out/big.png"] {
            let cpu = try PNGDecoder.decode(path: folder.appendingPathComponent("cpu/\(name)").path, maxPixels: 1 << 22)
                .premultiplied()
            let gpu = try PNGDecoder.decode(path: folder.appendingPathComponent("gpu/\(name)").path, maxPixels: 1 << 22)
                .premultiplied()
            #expect(cpu.width == gpu.width && cpu.height == gpu.height, "\(name)")
            for (a, b) in zip(cpu.rgba.pixels, gpu.rgba.pixels) { worst = max(worst, abs(Int(a) - Int(b))) }
        }
        #expect(worst <= 1)
    }
}
