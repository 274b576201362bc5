import Foundation
import Testing
@testable import GlsliceKit

/// A draw stage that draws on the CPU but runs as the GPU's does, on the
/// thread that calls it, and records which threads it ran on. Jobs whose
/// output name contains "fail" are streamed and then failed mid-way; every
/// job is streamed in bands of `stripRows` through `budget` when one is given.
final class FakeDrawer: @unchecked Sendable {
    let threads = Locked(Set<UInt>())
    let budget: MemoryBudget?
    let stripRows: Int
    /// How long each job takes to "draw": a slow GPU, or none.
    let delay: Duration
    /// The jobs it drew.
    let drew = Locked(0)
    /// Paint each output one colour of its own (`colour(for:)`) instead of
    /// rendering it: a file then shows whether it holds this drawer's pixels.
    let paint: Bool
    /// What it says it can draw (nil: anything), as a GPU's limits say.
    let limits: GPUContext.GLLimits?

    init(budget: MemoryBudget? = nil, stripRows: Int = 0, delay: Duration = .zero, paint: Bool = false,
         limits: GPUContext.GLLimits? = nil) {
        self.limits = limits
        self.budget = budget
        self.stripRows = stripRows
        self.delay = delay
        self.paint = paint
    }

    /// An opaque colour from the output's name (no rendering involved).
    static func colour(for output: String) -> [UInt8] {
        let sum = URL(fileURLWithPath: output).lastPathComponent.utf8.reduce(UInt8(0), &+)
        return [sum | 1, 255 - sum, 77, 255]
    }

    private func draw(_ job: BatchJob, rows: Range<Int>, into base: UnsafeMutablePointer<UInt8>) {
        guard paint else {
            // The CPU's drawer, as the engine's `.here` would make it.
            _ = try? Backend.cpu.drawer(job.prepared.plan, source: job.prepared.source.image).drawRows(rows, into: base)
            return
        }
        let colour = Self.colour(for: job.output), count = rows.count * job.prepared.size.width
        for i in 0..<count { for c in 0..<4 { base[i * 4 + c] = colour[c] } }
    }

    /// This fake as the batch's draw stage.
    var stage: DrawStage { DrawStage(limits: limits, run: run, runHybrid: runHybrid) }

    /// The hybrid: the scheduler's calls, each job drawn whole and delivered as one strip
    /// (a job whose output names "fail" is handed back, as a GPU's error is).
    func runHybrid(_ scheduler: DrawStage.Scheduler) throws {
        while case let claims = scheduler.nextGPUCall(), !claims.isEmpty {
            for claim in claims where scheduler.dispatching(claim.ticket) {
                let job = claim.item
                threads.withLock { _ = $0.insert(currentThread()) }
                drew.withLock { $0 += 1 }
                if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds)) }
                if job.output.contains("fail") {
                    scheduler.declined(claim.ticket)
                    continue
                }
                let size = job.prepared.size, stride = size.width * 4
                let buffer = PixelBuffer(byteCount: size.height * stride, budget: budget)
                draw(job, rows: 0..<size.height, into: buffer.base)
                scheduler.delivered(claim.ticket, .strip(Strip(buffer: buffer, offset: 0, rows: size.height, rowStride: stride)))
            }
        }
        scheduler.endCall()
    }

    func run(_ input: BoundedQueue<BatchJob>, output: BoundedQueue<EncodeWork>) throws {
        while let job = input.pop() {
            threads.withLock { _ = $0.insert(currentThread()) }
            drew.withLock { $0 += 1 }
            if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds)) }
            let size = job.prepared.size, stride = size.width * 4
            if job.output.contains("fail") {
                let stream = StripStream()
                output.push(EncodeWork(job: job, drawing: .stream(stream)))
                stream.fail(GlsliceError(.internal, "the fake GPU lost this one"))
            } else if stripRows > 0 {
                let stream = StripStream(depth: 2)
                output.push(EncodeWork(job: job, drawing: .stream(stream)))
                var y = 0
                while y < size.height {
                    let count = min(stripRows, size.height - y)
                    let buffer = PixelBuffer(byteCount: count * stride, budget: budget)
                    draw(job, rows: y..<(y + count), into: buffer.base)
                    stream.send(Strip(buffer: buffer, offset: 0, rows: count, rowStride: stride))
                    y += count
                }
                stream.finish()
            } else {
                let buffer = PixelBuffer(byteCount: size.height * stride, budget: budget)
                draw(job, rows: 0..<size.height, into: buffer.base)
                output.push(EncodeWork(job: job, drawing: .strip(Strip(buffer: buffer, offset: 0, rows: size.height,
                                                                           rowStride: stride))))
            }
        }
    }
}

func currentThread() -> UInt { UInt(pthread_self()) }

/// The batch's stages alone, with a fake draw stage in place of the GPU.
@Suite struct BatchStageTests {
    struct Run {
        var summary: BatchSummary
        var errors: [String]
        var stageThreads: [Stage: Set<UInt>]
        var callerThread: UInt
    }

    func run(_ lines: [String], in folder: URL, drawer: FakeDrawer, workers: Int = 3) throws -> Run {
        let manifest = try writeManifest(lines, in: folder)
        var options = BatchOptions(manifest: manifest)
        options.workers = workers
        let runner = BatchRunner(options: options, onError: { _ in })
        let reader = try ManifestReader(path: manifest, outputFolder: nil, allowOutside: false)
        let errors = LockedLines()
        let recorder = BatchRecorder(manifest: manifest, results: nil, resultsPath: nil, backend: "fake",
                                     onError: { errors.append($0) }, onProgress: nil)
        let seen = Locked([Stage: Set<UInt>]())
        runner.run(reader: reader, recorder: recorder, drawStage: drawer.stage, started: Date()) { stage in
            seen.withLock { _ = $0[stage, default: []].insert(currentThread()) }
        }
        return Run(summary: recorder.summary(seconds: 0, closing: true), errors: errors.lines,
                   stageThreads: seen.withLock { $0 }, callerThread: currentThread())
    }

    @Test func prepareAndEncodeNeverRunOnTheDrawThread() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let drawer = FakeDrawer(paint: true)
        let result = try run(BatchTests.jobLines(40), in: folder, drawer: drawer)
        #expect(result.summary.ok == 40 && result.summary.failed == 0)
        let drawThreads = drawer.threads.withLock { $0 }
        #expect(drawThreads == [result.callerThread]) // one draw thread: the one that opened the backend
        let prepare = result.stageThreads[.prepare] ?? [], encode = result.stageThreads[.encode] ?? []
        #expect(!prepare.isEmpty && !encode.isEmpty)
        #expect(prepare.isDisjoint(with: drawThreads))
        #expect(encode.isDisjoint(with: drawThreads))
        // Each file holds what the fake drew for it (its own colour, every pixel), read back by libpng.
        for i in [0, 7, 39] {
            let output = try PNGDecoder.decode(path: folder.appendingPathComponent("out/\(i).png").path, maxPixels: 1 << 20)
            let colour = FakeDrawer.colour(for: try #require(BatchTests.jobLines(40)[i].split(separator: "\"").first { $0.hasPrefix("out/") }).description)
            let pixels = output.rgba.pixels
            #expect(!pixels.isEmpty && stride(from: 0, to: pixels.count, by: 4).allSatisfy { Array(pixels[$0..<$0 + 4]) == colour },
                    "out/\(i).png does not hold the drawer's colour \(colour)")
        }
    }

    @Test func oneFailingJobNeverStopsTheOthers() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = BatchTests.jobLines(20)
        lines[3] = #"{"input": "missing.png", "output": "out/3.png", "pixels": "20x20"}"#             // prepare fails
        lines[9] = #"{"input": "panel.png", "output": "out/fail-9.png", "pixels": "20x20", "insets": "8"}"# // draw fails
        lines[15] = #"{"input": "panel.png", "output": "out/taken", "pixels": "20x20", "insets": "8"}"#   // encode fails
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out/taken"), withIntermediateDirectories: true)
        let result = try run(lines, in: folder, drawer: FakeDrawer())
        #expect(result.summary.ok == 17 && result.summary.failed == 3)
        #expect(result.errors.count == 3)
        for (line, text) in [(4, "no such file"), (10, "the fake GPU lost this one"), (16, "taken")] {
            #expect(result.errors.contains { $0.contains(":\(line): ") && $0.contains(text) }, "line \(line)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/fail-9.png").path))
        for i in [0, 2, 4, 8, 10, 14, 16, 19] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/\(i).png").path))
        }
    }

    /// Outputs streamed in 4-row bands through a budget of three bands: the
    /// drawer waits for the encoders rather than holding whole images.
    @Test func streamedOutputsHoldOnlyTheBudget() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = (0..<6).map { #"{"input": "texture.png", "output": "out/\#($0).png", "insets": "6", "pixels": "300x\#(200 + $0)", "mode": "round"}"# }
        let band = 4 * 300 * 4
        let budget = MemoryBudget(capacity: 3 * band)
        let result = try run(lines, in: folder, drawer: FakeDrawer(budget: budget, stripRows: 4))
        #expect(result.summary.ok == 6)
        #expect(budget.peak <= 3 * band) // one whole output would be 50 bands
        #expect(budget.held == 0)
        let output = try PNGDecoder.decode(path: folder.appendingPathComponent("out/5.png").path, maxPixels: 1 << 20)
        #expect(output.height == 205)
    }
}
