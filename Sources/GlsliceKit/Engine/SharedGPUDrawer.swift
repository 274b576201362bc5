import Foundation

/// One GPU draw thread shared by many callers (serve's render threads): it
/// opens the GL context on its own thread and makes every GL call there.
/// Requests that arrive together are packed into one atlas and drawn
/// together: after the first, the thread keeps gathering while requests keep
/// coming (each within `gap` of the last, for at most `gather` in all), so a
/// lone request waits at most `gap` and a busy server fills its atlases. The
/// caller is not held while its job waits: `draw(_:then:)` hands the drawn
/// rows to a completion, which queues the encoding. Outputs too large for an
/// atlas come back as a band stream that the GPU thread keeps filling.
package final class SharedGPUDrawer: Sendable {
    /// What the GPU thread hands back: rows in memory, or a stream of bands.
    /// (A `Drawing`, but `Sendable`: it crosses from the GPU thread to an encoder.)
    package enum Drawn: Sendable {
        case rows(DrawnRows)
        case stream(BandStream)

        package var drawing: Drawing {
            switch self {
            case .rows(let rows): .rows(rows)
            case .stream(let stream): .stream(stream)
            }
        }
    }

    /// Called on the GPU thread once a job is drawn: keep it short (queue the encoding).
    package typealias Completion = @Sendable (Result<Drawn, any Error>) -> Void

    private struct Request: Sendable {
        var job: PreparedJob
        var completion: Completion
    }

    private let requests = BoundedQueue<Request>(capacity: 1 << 16)
    private let thread: WorkerThreads
    /// `gpu (RENDERER)`.
    package let description: String
    /// Busy time of the GPU thread (draw, draw-wait, read-back).
    package let times: StageTimes

    /// Opens the GPU on a new thread; throws what `Backend.make(.gpu)` throws there.
    /// - Parameters:
    ///   - acceptSoftware: false for `--backend auto`, which throws `Declined`
    ///     with `auto`'s reason when the only GL is a software rasteriser.
    ///   - gather: the longest the GPU thread gathers requests for one atlas.
    ///   - gap: it stops gathering when no request came for this long.
    ///   - inFlightBytes: drawn pixels allowed to wait for their encoders.
    package init(device: Int?, acceptSoftware: Bool = true, gather: Duration = .milliseconds(2),
                gap: Duration = .microseconds(200), inFlightBytes: Int = 512 << 20,
                times: StageTimes = StageTimes()) throws {
        self.times = times
        let opened = Locked<Result<String, any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let requests = self.requests
        thread = WorkerThreads(count: 1, name: "glslice-gpu") { _ in
            let gpu: GPURenderer
            do {
                let context = try GPUContext.make(device: device)
                let verdict = Backend.autoVerdict(for: context)
                guard acceptSoftware || verdict.useGPU else { throw Declined(reason: verdict.reason) }
                gpu = try GPURenderer(context: context)
                opened.withLock { $0 = .success("gpu (\(gpu.context.renderer))") }
            } catch {
                opened.withLock { $0 = .failure(error) }
                ready.signal()
                return
            }
            ready.signal()
            Self.serve(requests, gpu: gpu, gather: gather, gap: gap, budget: MemoryBudget(capacity: inFlightBytes),
                       times: times)
        }
        ready.wait()
        switch opened.withLock({ $0 }) {
        case .success(let description)?:
            self.description = description
        case .failure(let error)?:
            thread.wait()
            throw error
        case nil:
            throw GlsliceError(.internal, "the GPU thread ended before opening a context")
        }
    }

    /// Thrown for `acceptSoftware: false` when the only GL is a software
    /// rasteriser, with `auto`'s reason for taking the CPU instead.
    package struct Declined: Error, Sendable {
        package var reason: String
    }

    /// Queues `job` for the GPU thread; `completion` gets its rows (or a stream
    /// of them) on that thread once drawn, or the error.
    package func draw(_ job: PreparedJob, then completion: @escaping Completion) {
        guard requests.push(Request(job: job, completion: completion)) else {
            completion(.failure(GlsliceError(.unavailable, "the GPU thread has stopped")))
            return
        }
    }

    /// Draws `job` and waits for it: `draw(_:then:)` for a caller with nothing else to do.
    package func draw(_ job: PreparedJob) throws -> Drawing {
        let answer = Locked<Result<Drawn, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        draw(job) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try (answer.withLock { $0 } ?? .failure(GlsliceError(.internal, "no answer"))).get().drawing
    }

    /// Lets the requests queued finish, then ends the GPU thread.
    package func shutdown() {
        requests.close()
        thread.wait()
    }

    private static func serve(_ requests: BoundedQueue<Request>, gpu: GPURenderer, gather: Duration, gap: Duration,
                              budget: MemoryBudget, times: StageTimes) {
        let atlas: AtlasRenderer<Request>
        do {
            // The callers wait on the read back, so there is nothing to overlap it with.
            atlas = try AtlasRenderer<Request>(renderer: gpu, ring: nil, budget: budget, times: times) { placed, pixels in
                for p in placed {
                    p.item.completion(pixels.map { pixels in
                        .rows(DrawnRows(buffer: pixels.buffer, offset: pixels.offset(x: p.x, y: p.y), rows: p.size.height,
                                        rowStride: pixels.width * 4))
                    })
                }
            }
        } catch {
            while let request = requests.pop() { request.completion(.failure(error)) }
            return
        }
        let clock = ContinuousClock()
        while true {
            let start = clock.now
            let batch = requests.popBatch(limit: 256, gathering: gather, gap: gap)
            times.add(.drawWait, clock.now - start)
            if batch.isEmpty { break }
            let large = atlas.place(batch, size: \.job.size, upload: { request in
                try gpu.upload(request.job.plan, source: request.job.source.image, sourceKey: request.job.source.key)
            }, failed: { request, error in request.completion(.failure(error)) })
            atlas.finish()
            for request in large {
                // Its caller gets the stream at once and encodes while the bands come.
                let stream = BandStream(depth: 4)
                request.completion(.success(.stream(stream)))
                GPUBandWriter(gpu: gpu, budget: budget, times: times).send(request.job, to: stream, ring: nil)
            }
            gpu.trimTextureCache()
        }
    }
}
