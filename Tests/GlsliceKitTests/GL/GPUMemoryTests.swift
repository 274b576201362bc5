import Foundation
import Testing
@testable import GlsliceKit

/// docs/HARDENING.md, round four, findings 1-3: GPU memory held to a budget in
/// bytes, and a job the GPU cannot take drawn by the CPU (hybrid) or refused
/// by name (`gpu`), decided before a GL call.
/// One test at a time: each opens contexts and uploads tens of MiB of textures, and
/// llvmpipe shares one screen among every context in the process.
@Suite(.serialized, .enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUMemoryTests {
    /// A job on `source` (its `file` names it in messages), cut by `insets`.
    func job(_ source: PremultipliedImage, key: String, insets: Insets, pixels: PixelSize) throws -> PreparedJob {
        let resolved = ResolvedSource(source: SourceImage(image: source, file: "\(key).png"),
                                      key: SourceKey(contentHash: key, recipe: .plain))
        let request = RenderRequest(size: .pixels(pixels), insets: insets, modes: PerAxis(both: .stretch))
        return try PreparedJob(request: request, source: resolved, limits: Limits(maxSourcePixels: 1 << 26, maxOutputPixels: 1 << 26))
    }

    /// An opaque image whose every pixel differs from its neighbours (nothing is one colour).
    static func noise(width: Int, height: Int) -> PremultipliedImage { Parity.noise(width: width, height: height) }

    /// The encoded PNG of `job` as `drawing` gives it.
    func encoded(_ job: PreparedJob, _ drawing: Drawing) throws -> [UInt8] {
        try Engine.encode(job, drawing: drawing, to: .memory).data ?? []
    }

    /// Finding 1: `40000x1` then `1x40000` grew the renderbuffer to their union,
    /// 16,384² (1 GiB on llvmpipe), held until exit. Now each draw's framebuffer
    /// is sized for it, and the bytes come back after the large draw.
    @Test func aWideThenATallOutputLeaveTheFramebufferSmall() throws {
        _ = try GPUTestSupport.backend()
        let memory = GPUMemory(budget: 64 << 20)
        let drawer = try GPUDrawThread(device: nil, memory: memory)
        defer { drawer.shutdown() }
        let source = Self.noise(width: 12, height: 12)
        var largest = 0
        for pixels in [PixelSize(width: 40_000, height: 1), PixelSize(width: 1, height: 40_000), PixelSize(width: 40, height: 30)] {
            let wide = try job(source, key: "noise", insets: Insets(top: 4, left: 4, bottom: 4, right: 4), pixels: pixels)
            let png = try encoded(wide, drawer.draw(wide))
            // The same bytes as the CPU.
            #expect(png == (try encoded(wide, .here)), "\(pixels)")
            largest = max(largest, memory.bytes(.framebuffer))
        }
        // The widest chunk (16,384 on llvmpipe) by one row, or one column by a band: never their union.
        #expect(largest <= 4 << 20, "framebuffer \(largest) bytes")
        #expect(memory.bytes <= memory.budget)
    }

    /// Finding 2: 64x64 outputs of one 3000² source that differ only in insets
    /// each uploaded their cells (about 35 MiB) into a cache bounded by count
    /// (512). Now the cache is bounded by bytes: half the budget.
    @Test func insetsOnlyJobsOnALargeSourceStayWithinTheBudget() throws {
        _ = try GPUTestSupport.backend()
        let memory = GPUMemory(budget: 96 << 20)
        let drawer = try GPUDrawThread(device: nil, memory: memory)
        defer { drawer.shutdown() }
        let source = Self.noise(width: 3000, height: 3000)
        var peak = 0
        for inset in 1...12 {
            let small = try job(source, key: "big", insets: Insets(top: Double(inset), left: Double(inset), bottom: Double(inset), right: Double(inset)),
                                pixels: PixelSize(width: 64, height: 64))
            _ = try encoded(small, drawer.draw(small))
            // Read as the answer comes, before the GPU thread trims: the cache's half plus this job's cells.
            peak = max(peak, memory.bytes)
            #expect(memory.bytes <= memory.budget, "after insets \(inset): \(memory.bytes) bytes")
        }
        #expect(peak <= memory.budget, "peak \(peak) bytes against a budget of \(memory.budget)")
    }

    /// Many distinct large sources in one gathering: the atlas draws and trims
    /// before the cache passes its share, instead of after the gathering.
    @Test func manyLargeSourcesInOneAtlasStayWithinTheBudget() throws {
        let backend = try GPUTestSupport.backend()
        guard let gpu = backend.gpu else { return }
        let memory = gpu.memory
        let loop = GPUDrawLoop<PreparedJob>(gpu: gpu, budget: MemoryBudget(capacity: 1 << 30), times: StageTimes(), ring: nil)
        let queue = BoundedQueue<PreparedJob>(capacity: 64)
        let jobs = try (0..<10).map { index in
            try job(Self.noise(width: 2000 + index, height: 2000), key: "source-\(index)",
                    insets: Insets(top: 2, left: 2, bottom: 2, right: 2), pixels: PixelSize(width: 50, height: 40))
        }
        for job in jobs { queue.push(job) }
        queue.close()
        let peak = Locked(0), outputs = Locked([Int: [UInt8]]())
        try loop.run(queue, job: { $0 }) { job, drawn in
            peak.withLock { $0 = max($0, memory.bytes) }
            if case .success(let drawing) = drawn, let png = try? self.encoded(job, drawing) {
                outputs.withLock { $0[job.source.image.width - 2000] = png }
            }
        }
        #expect(peak.withLock { $0 } <= memory.budget + (16 << 20), "peak \(peak.withLock { $0 }) bytes, budget \(memory.budget)")
        #expect(memory.bytes(.textures) <= memory.budget / 2)
        for (index, job) in jobs.enumerated() {
            #expect(outputs.withLock { $0[index] } == (try encoded(job, .here)), "job \(index)")
        }
    }

    /// Finding 3: in hybrid, a source over the GPU's texture limit failed on
    /// whichever jobs the GPU thread took. Now it is drawn by the CPU, every
    /// time; `--backend gpu` refuses it naming the limit.
    @Test func hybridDrawsWhatTheGPUCannotTake() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try GPUTestSupport.backend()
        let limit = try GPUContext.make().limits.maxTextureSize
        // One row of pixels past the limit (20000x2 on llvmpipe, whose limit is 16,384).
        let wide = Self.noise(width: limit + 3616, height: 2)
        try PNGEncoder.write(wide, to: .file(folder.appendingPathComponent("wide.png").path))
        let lines = (0..<40).map { index in
            index.isMultiple(of: 2)
                ? #"{"input": "wide.png", "output": "OUT/\#(index).png", "pixels": "\#(300 + index)x4", "insets": "0,8,0,8"}"#
                : #"{"input": "panel.png", "output": "OUT/\#(index).png", "pixels": "\#(60 + index)x40", "insets": "8"}"#
        }
        func batch(_ backend: BackendChoice, out: String) throws -> (summary: BatchSummary, errors: [String]) {
            let manifest = try writeManifest(lines.map { $0.replacingOccurrences(of: "OUT/", with: "\(out)/") }, in: folder)
            var options = BatchOptions(manifest: manifest)
            options.backend = backend
            options.workers = 2
            options.limits = Limits(maxSourcePixels: 1 << 26, maxOutputPixels: 1 << 26)
            let errors = Locked([String]())
            let summary = try BatchRunner(options: options, onError: { line in errors.withLock { $0.append(line) } }).run()
            return (summary, errors.withLock { $0 })
        }
        let cpu = try batch(.cpu, out: "cpu")
        #expect(cpu.summary.ok == 40)
        for run in 0..<2 {
            let hybrid = try batch(.hybrid, out: "hybrid-\(run)")
            #expect(hybrid.summary.ok == 40 && hybrid.summary.failed == 0, "run \(run): \(hybrid.errors)")
            for index in 0..<40 {
                let a = try Data(contentsOf: folder.appendingPathComponent("cpu/\(index).png"))
                let b = try Data(contentsOf: folder.appendingPathComponent("hybrid-\(run)/\(index).png"))
                #expect(a == b, "run \(run), \(index).png")
            }
        }
        let gpu = try batch(.gpu, out: "gpu")
        #expect(gpu.summary.ok == 20 && gpu.summary.failed == 20)
        #expect(gpu.errors.count == 20 && gpu.errors.allSatisfy { $0.contains("above this GPU's texture limit of \(limit)") },
                "\(gpu.errors.first ?? "")")
    }

    /// The same rule, with a drawer whose limits are tiny: no job past them ever
    /// reaches it, in hybrid or alone.
    @Test func aJobPastTheDrawersLimitsNeverReachesIt() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // panel.png is 24x24 and texture.png 28x28: a limit of 26 takes only the panel.
        let limits = GPUContext.GLLimits(maxTextureSize: 26, maxRenderbufferSize: 4096, maxViewport: (4096, 4096))
        let lines = (0..<20).map { index in
            #"{"input": "\#(index.isMultiple(of: 2) ? "texture.png" : "panel.png")", "output": "out/\#(index).png", "pixels": "50x40", "insets": "6"}"#
        }
        let manifest = try writeManifest(lines, in: folder)
        for hybrid in [true, false] {
            let drawer = FakeDrawer(limits: limits)
            let runner = BatchRunner(options: BatchOptions(manifest: manifest), onError: { _ in })
            let reader = try ManifestReader(path: manifest, outputFolder: nil, allowOutside: false)
            let recorder = BatchRecorder(manifest: manifest, results: nil, resultsPath: nil, backend: "fake", onError: { _ in }, onProgress: nil)
            let sides = runner.run(reader: reader, recorder: recorder, drawStage: drawer.stage, hybrid: hybrid, started: Date())
                .figures(wall: 0)
            let summary = recorder.summary(seconds: 0, closing: true)
            #expect(drawer.drew.withLock { $0 } <= 10 && sides.gpu.outputs <= 10)
            #expect(summary.ok == (hybrid ? 20 : 10) && summary.failed == (hybrid ? 0 : 10), "hybrid \(hybrid)")
        }
    }
}

/// `GPUMemory.keeps`: an allocation is kept for a draw it holds unless it is far larger.
@Suite struct GPUMemoryRuleTests {
    @Test func anAllocationShrinksBackAfterALargeDraw() {
        #expect(GPUMemory.keeps(capacity: 4 << 20, needed: 16))          // small ones are kept
        #expect(!GPUMemory.keeps(capacity: 1 << 30, needed: 64 << 10))   // 1 GiB for 64 KiB is not
        #expect(GPUMemory.keeps(capacity: 32 << 20, needed: 20 << 20))   // within twice
        #expect(!GPUMemory.keeps(capacity: 8 << 20, needed: 9 << 20))    // too small
        #expect(GPUMemory(budget: 1).budget == GPUMemory.minimumBudget)
        #expect(GPUMemory(budget: 256 << 20).stripBytes(readBackSlots: 7) == 16 << 20)
    }
}
