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
            options.gpu.pixelPackRing = ring
            summaries.append(try BatchRunner(options: options, onError: { Issue.record("\($0)") }).run())
        }
        #expect(summaries.map(\.ok) == [61, 61])
        #expect(summaries[1].backend.hasPrefix("gpu"))
        // The GL thread's CPU time (`--stats`): none without one; one thread's, so within the run's wall time.
        #expect(summaries[0].glThreadCPUSeconds == 0)
        #expect(summaries[1].glThreadCPUSeconds > 0 && summaries[1].glThreadCPUSeconds <= summaries[1].seconds, "\(summaries[1].glThreadCPUSeconds)")
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

    /// A large output on the real GPU draw stage: drawn in 16-row bands and
    /// streamed to its encoder, never whole: read into memory from a budget of
    /// four bands, or through the pixel-pack ring, lent to the encoder uncopied.
    @Test(arguments: [false, true])
    func largeOutputsStreamBandByBandWithinTheBudget(ring: Bool) throws {
        let backend = try GPUTestSupport.backend()
        let gpu = try #require(backend.gpu)
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = BatchTests.jobLines(12)
        lines.append(#"{"input": "texture.png", "output": "out/big.png", "insets": "6", "pixels": "1500x300", "mode": "round"}"#)
        let manifest = try writeManifest(lines, in: folder)
        var options = BatchOptions(manifest: manifest)
        options.outputFolder = folder.appendingPathComponent("gpu").path
        options.workers = 2
        let runner = BatchRunner(options: options, onError: { Issue.record("\($0)") })
        let reader = try ManifestReader(path: manifest, outputFolder: options.outputFolder, allowOutside: false)
        let recorder = BatchRecorder(manifest: manifest, results: nil, resultsPath: nil, backend: "gpu",
                                     onError: { Issue.record("\($0)") }, onProgress: nil)
        let band = 16 * 1500 * 4
        let budget = MemoryBudget(capacity: 4 * band + (1 << 22)) // four bands, or one 1024² atlas
        let stage = DrawStage.gpu(gpu, settings: GPUSettings(pixelPackRing: ring), budget: budget, recorder: recorder,
                                  times: runner.times, strips: Strips(maxRows: 16))
        runner.run(reader: reader, recorder: recorder, drawStage: stage, started: Date())
        #expect(recorder.summary(seconds: 0, closing: true).ok == 13)
        #expect(budget.peak <= budget.capacity)
        #expect(budget.peak < 1500 * 300 * 4) // never the whole 1.8 MB output at once
        #expect(runner.times.seconds(.readBack) > 0)
        if ring {
            // Through the ring each band is its own read back: 19 bands of the big output, and the atlas.
            #expect(runner.times.count(.readBack) >= 300 / 16 + 1 + 1, "\(runner.times.count(.readBack))")
        }
        let gpuImage = try PNGDecoder.decode(path: folder.appendingPathComponent("gpu/out/big.png").path, maxPixels: 1 << 22)
        let source = try SourceImage.load(path: folder.appendingPathComponent("texture.png").path, maxPixels: 1 << 20)
        let request = RenderRequest(size: .pixels(PixelSize(width: 1500, height: 300)), insets: try Insets(parsing: "6"),
                                    modes: PerAxis(both: .round))
        let cpu = try Backend.cpu.image(PlanBuilder.plan(request, source: source), source: source.image)
        var worst = 0
        for (a, b) in zip(cpu.rgba.pixels, gpuImage.premultiplied().rgba.pixels) { worst = max(worst, abs(Int(a) - Int(b))) }
        #expect(gpuImage.width == 1500 && gpuImage.height == 300 && worst <= 1)
    }
}
