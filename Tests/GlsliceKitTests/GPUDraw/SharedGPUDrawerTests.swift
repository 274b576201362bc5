import Foundation
import Testing
@testable import GlsliceKit

/// Serve's GPU thread: one context for many callers, jobs that arrive
/// together drawn in one atlas, large outputs streamed.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct SharedGPUDrawerTests {
    func job(_ name: String, insets: String, pixels: PixelSize, mode: ResizeMode) throws -> PreparedJob {
        let source = try ResolvedSource.load(input: fixtures.appendingPathComponent(name).path, outputScale: nil,
                                             maxPixels: 1 << 20)
        let request = RenderRequest(size: .pixels(pixels), insets: try Insets(parsing: insets), modes: PerAxis(both: mode))
        return try PreparedJob(request: request, source: source, limits: Limits())
    }

    /// The CPU's pixels for `job`, and the most any channel of `drawing` differs from them (0: §5).
    func worstDifference(_ job: PreparedJob, _ drawing: Drawing) throws -> Int {
        let expected = try Backend.cpu.image(job.plan, source: job.source.image).rgba.pixels
        let sink = PixelCollector(size: job.size)
        switch drawing {
        case .strip(let rows):
            for row in 0..<rows.rows {
                try sink.write(premultipliedRows: rows.first + row * rows.rowStride, count: 1)
            }
        case .stream(let stream):
            while let band = try stream.next() {
                for row in 0..<band.rows { try sink.write(premultipliedRows: band.first + row * band.rowStride, count: 1) }
            }
        case .here:
            Issue.record("the shared drawer hands back drawn rows, not a job to draw")
        case .encoded(let data):
            // Encoded on the GPU: the file libpng reads must be the CPU's pixels.
            let writer = try PNGEncoder(target: .memory, size: job.size, opaque: job.isOpaque, compression: .fast)
            try writer.finish(encoded: data)
            let decoded = try PNGDecoder.decode(data: Data(writer.memoryData ?? []), maxPixels: 1 << 28)
            return try decoded == Backend.cpu.image(job.plan, source: job.source.image).straight() ? 0 : 255
        }
        return zip(expected, sink.image.rgba.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test func jobsThatArriveTogetherShareOneAtlas() throws {
        _ = try GPUTestSupport.backend()
        let times = StageTimes()
        // A generous gathering window, so that a loaded CI machine still sends all eight in time.
        let drawer = try GPUDrawThread(device: nil, gather: .seconds(2), gap: .milliseconds(500), times: times)
        defer { drawer.shutdown() }
        let jobs = try (0..<8).map { try job("panel.png", insets: "8", pixels: PixelSize(width: 40 + $0 * 9, height: 30 + $0), mode: .stretch) }
        let worst = Locked([Int](repeating: -1, count: jobs.count))
        let callers = WorkerThreads(count: jobs.count, name: "test-caller") { index in
            let result = Result { try self.worstDifference(jobs[index], drawer.draw(jobs[index])) }
            worst.withLock { $0[index] = (try? result.get()) ?? 999 }
        }
        callers.wait()
        #expect(worst.withLock { $0 }.allSatisfy { $0 == 0 })
        #expect(times.count(.readBack) == 1) // eight answers, one atlas read back
    }

    @Test func aLargeOutputComesBackAsAStreamOfBands() throws {
        _ = try GPUTestSupport.backend()
        let drawer = try GPUDrawThread(device: nil)
        defer { drawer.shutdown() }
        let large = try job("texture.png", insets: "6", pixels: PixelSize(width: 1300, height: 90), mode: .round)
        let drawing = try drawer.draw(large)
        guard case .stream = drawing else {
            Issue.record("a 1300-px-wide output does not fit a 1024² atlas and should stream")
            return
        }
        #expect(try worstDifference(large, drawing) == 0)
    }

    /// On a machine that can only have llvmpipe (told from /dev), the context is
    /// software and `auto` declines it; on one with a GPU, `auto` takes it.
    @Test(.enabled(if: GPUTestSupport.softwareOnly, "this machine has a DRM render node or an NVIDIA device: see the hardware test"))
    func autoDeclinesASoftwareRasteriserWithItsReason() throws {
        _ = try GPUTestSupport.backend()
        let context = try GPUContext.make()
        #expect(context.isSoftware, "no GPU device here, yet \(context.renderer) was not taken for software")
        #expect(throws: Backend.Declined.self) { _ = try GPUDrawThread(device: nil, acceptSoftware: false) }
    }

    @Test(.enabled(if: !GPUTestSupport.softwareOnly, "no DRM render node or NVIDIA device here: only llvmpipe"))
    func autoTakesAHardwareGPU() throws {
        let drawer = try GPUDrawThread(device: nil, acceptSoftware: false)
        drawer.shutdown()
    }
}
