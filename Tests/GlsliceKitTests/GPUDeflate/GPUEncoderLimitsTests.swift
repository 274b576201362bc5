import Foundation
import Testing
@testable import GlsliceKit

/// docs/HARDENING.md, round five (issue 49): GPU encoding that fails one
/// output at most, within its budget. Each output goes through the one GPU
/// draw loop (batch's draw stage and serve's GPU thread both run it), with GPU
/// encoding forced on llvmpipe, and must be the CPU's file byte for byte.
@Suite(.serialized, .enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUEncoderLimitsTests {
    /// A `fast` PNG job: `source` resized to `pixels`.
    static func job(_ source: PremultipliedImage, key: String, pixels: PixelSize, insets: Insets = .zero,
                    mode: ResizeMode = .stretch) throws -> PreparedJob {
        let resolved = ResolvedSource(source: SourceImage(image: source, file: "\(key).png"), key: SourceKey(contentHash: key, recipe: .plain))
        let request = RenderRequest(size: .pixels(pixels), insets: insets, modes: PerAxis(both: mode), compression: .fast)
        return try PreparedJob(request: request, source: resolved, limits: Limits(maxSourcePixels: 1 << 26, maxOutputPixels: 1 << 26))
    }

    /// A 1×`height` opaque vertical gradient (the smallest image that gives the look).
    static func gradient(height: Int) -> PremultipliedImage {
        var pixels = [UInt8](repeating: 255, count: height * 4)
        for y in 0..<height { (pixels[y * 4], pixels[y * 4 + 1], pixels[y * 4 + 2]) = (UInt8(y % 256), UInt8(255 - y % 256), UInt8(y * 7 % 256)) }
        return PremultipliedImage(RGBAImage(width: 1, height: height, pixels: pixels))
    }

    /// Runs `jobs` through one GPU draw loop on `gpu`: each one's file or error, and the most GPU memory held as they came.
    static func run(_ jobs: [PreparedJob], on gpu: GPUSession) throws -> (files: [Int: Result<[UInt8], any Error>], peak: Int) {
        let loop = GPUDrawLoop<Int>(gpu: gpu, budget: MemoryBudget(capacity: 1 << 30), times: StageTimes(), ring: nil)
        let queue = BoundedQueue<Int>(capacity: jobs.count)
        for index in jobs.indices { queue.push(index) }
        queue.close()
        let files = Locked([Int: Result<[UInt8], any Error>]()), peak = Locked(0)
        // Encoded off the loop's thread, as batch's encode stage does: a streamed output's strips come after `deliver` returns.
        let encoders = DispatchGroup()
        try loop.run(queue, job: { jobs[$0] }) { index, drawn in
            peak.withLock { $0 = max($0, gpu.memory.bytes) }
            encoders.enter()
            DispatchQueue.global().async {
                let file = Result { try Engine.encode(jobs[index], drawing: try drawn.get(), to: .memory).data ?? [] }
                files.withLock { $0[index] = file }
                encoders.leave()
            }
        }
        encoders.wait()
        return (files.withLock { $0 }, peak.withLock { $0 })
    }

    /// The CPU's file for `job`.
    static func cpuFile(_ job: PreparedJob) throws -> [UInt8] { try Engine.encode(job, drawing: .here, to: .memory).data ?? [] }

    /// Finding 1: calls were cut by bytes, never by rows, and the deflate pass
    /// refused more than 4,194,240 rows: three 1×1,500,000 outputs together
    /// failed all three, and one of 1×4,194,241 failed alone ("a GPU deflate
    /// dispatch of … bytes is over its 512 MiB limit"). Now calls are cut by
    /// every limit before a GL call, and each file is the CPU's.
    @Test func tallOutputsAreCutByRowsAndGiveTheCPUsFiles() throws {
        let gpu = try #require(try GPUTestSupport.backend().gpu)
        gpu.gpuEncoding = true
        let source = Self.gradient(height: 300)
        let sizes = [1_500_000, 1_500_000, 1_500_000, GPUDeflater.maxRowsPerDispatch + 1].map { PixelSize(width: 1, height: $0) }
        let jobs = try sizes.enumerated().map { try Self.job(source, key: "gradient", pixels: $1, insets: Insets(top: Double($0), left: 0, bottom: 0, right: 0)) }
        #expect(gpu.encodes(.png, .fast, size: sizes[3]), "the GPU encodes a 1x4194241 output")
        let (files, peak) = try Self.run(jobs, on: gpu)
        for (index, job) in jobs.enumerated() {
            let file = try #require(files[index])
            #expect(try file.get() == Self.cpuFile(job), "\(sizes[index]) (job \(index)): not the CPU's file")
        }
        #expect(peak <= gpu.memory.budget, "peak \(peak) bytes, budget \(gpu.memory.budget)")
    }

    /// A job over a pass's limit on its own is refused by name, with the real
    /// limit and the real number, before any GL call (the message said "512 MiB" for rows).
    @Test func aJobOverALimitIsRefusedWithItsRealNumbers() throws {
        let map = RepeatMap.none
        let coder = RepeatDeflater(map: map, width: 1, rowBytes: 2, bitsPerPixel: 8)
        let rows = GPUDeflater.maxRowsPerDispatch + 1
        let job = GPUDeflater.Job(deflater: coder, firstRowByte: 0, oldest: 0, firstRow: 0, rows: rows, endsImage: true)
        let refusal = try #require(GPUDeflater.refusal(job))
        #expect(refusal.kind == .unavailable) // the CPU encodes it: never a failed output
        #expect(refusal.message.contains("4194240 rows") && refusal.message.contains("not 4194241"), "\(refusal.message)")
        let fits = GPUDeflater.Job(deflater: coder, firstRowByte: 0, oldest: 0, firstRow: 0, rows: rows - 1, endsImage: true)
        #expect(GPUDeflater.refusal(fits) == nil)
    }

    /// Finding 1's last case: a GL out-of-memory error in one output's call
    /// failed the other outputs of that call. Now a failed call is tried again
    /// an output at a time, and an output that fails alone is drawn again and
    /// encoded on the CPU: every file is the CPU's.
    @Test func aFailedEncodingCallFailsNoOutput() throws {
        let gpu = try #require(try GPUTestSupport.backend().gpu)
        gpu.gpuEncoding = true
        gpu.failEncodingCallsOver = 1
        let noise = GPUMemoryTests.noise(width: 12, height: 12), edge = Insets(top: 3, left: 3, bottom: 3, right: 3)
        let jobs = try [PixelSize(width: 1500, height: 200), PixelSize(width: 1100, height: 300), PixelSize(width: 1200, height: 100)]
            .map { try Self.job(noise, key: "noise", pixels: $0, insets: edge) }
        let (files, _) = try Self.run(jobs, on: gpu)
        for (index, job) in jobs.enumerated() {
            let file = try #require(files[index])
            #expect(try file.get() == Self.cpuFile(job), "job \(index): not the CPU's file")
        }
        // Alone, each still fails: those are drawn again and encoded on the CPU.
        gpu.failEncodingCallsOver = 0
        let (again, _) = try Self.run(jobs, on: gpu)
        for (index, job) in jobs.enumerated() { #expect(try again[index]?.get() == Self.cpuFile(job), "job \(index), every call failing") }
    }

    /// Finding 2: the encoder's buffers were outside the budget (about 145 MiB
    /// uncounted in serve after one 4096² `fast` PNG, and held while idle). Now
    /// they are charged to `GPUMemory` (`.encoder`, so `glslice_gpu_bytes` counts
    /// them), stay within the budget with the rest, and are given back after the call.
    @Test func theEncodersBuffersAreCountedAndGivenBack() throws {
        _ = try GPUTestSupport.backend()
        let gpu = try GPUSession(context: try GPUContext.make(), memory: GPUMemory(budget: 64 << 20))
        gpu.gpuEncoding = true
        // Tiled (periodic columns): stretched noise this wide runs past llvmpipe's loop limit, and would be encoded on the CPU.
        let noise = GPUMemoryTests.noise(width: 12, height: 12)
        let job = try Self.job(noise, key: "noise", pixels: PixelSize(width: 1400, height: 1400), insets: Insets(top: 3, left: 3, bottom: 3, right: 3),
                               mode: .tile)
        #expect(gpu.encodes(.png, .fast, size: job.size))
        let held = Locked(0)
        let loop = GPUDrawLoop<Int>(gpu: gpu, budget: MemoryBudget(capacity: 1 << 30), times: StageTimes(), ring: nil)
        let queue = BoundedQueue<Int>(capacity: 1)
        queue.push(0)
        queue.close()
        var drawing: Result<Drawing, any Error> = .failure(InternalErrors.noAnswer())
        try loop.run(queue, job: { _ in job }) { _, drawn in
            held.withLock { $0 = gpu.memory.bytes(.encoder) }
            #expect(gpu.memory.bytes <= gpu.memory.budget, "\(gpu.memory.bytes) bytes held, budget \(gpu.memory.budget)")
            drawing = drawn
        }
        guard case .success(.encoded) = drawing else {
            Issue.record("the output was not encoded on the GPU: \(drawing)")
            return
        }
        let file = try Engine.encode(job, drawing: drawing.get(), to: .memory).data ?? []
        // The pixels alone are 7.5 MiB: the encoder's buffers were charged while it encoded.
        #expect(held.withLock { $0 } >= 1400 * 1400 * 4, "\(held.withLock { $0 }) bytes charged to the encoder")
        #expect(gpu.memory.bytes(.encoder) <= 1 << 20, "\(gpu.memory.bytes(.encoder)) bytes still held after the call")
        #expect(file == (try Self.cpuFile(job)))
    }
}
