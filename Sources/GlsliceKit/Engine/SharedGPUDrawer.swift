import Foundation

/// One GPU draw thread shared by many callers (serve's render threads): it
/// opens the GL context on its own thread and makes every GL call there.
/// Requests that arrive within `gather` of each other are packed into one
/// atlas and drawn together; a caller blocks only until its pixels are read
/// back, then encodes on its own thread. Outputs too large for an atlas come
/// back as a band stream that the GPU thread keeps filling.
public final class SharedGPUDrawer: Sendable {
    /// What the GPU thread is asked for and answers.
    private final class Request: @unchecked Sendable {
        let job: PreparedJob
        var answer: Result<Drawing, any Error> = .failure(GlsliceError(.internal, "not drawn"))
        let done = DispatchSemaphore(value: 0)

        init(job: PreparedJob) { self.job = job }
    }

    private let requests = BoundedQueue<Request>(capacity: 4096)
    private let thread: WorkerThreads
    /// `gpu (RENDERER)`.
    public let description: String
    /// Busy time of the GPU thread (draw, draw-wait, read-back).
    public let times: StageTimes

    /// Opens the GPU on a new thread; throws what `Backend.make(.gpu)` throws there.
    /// - Parameters:
    ///   - acceptSoftware: false for `--backend auto`, which throws `.unavailable`
    ///     with `auto`'s reason when the only GL is a software rasteriser.
    ///   - gather: how long the GPU thread waits for more requests to share an atlas.
    ///   - inFlightBytes: drawn pixels allowed to wait for their encoders.
    public init(device: Int?, acceptSoftware: Bool = true, gather: Duration = .milliseconds(2), inFlightBytes: Int = 512 << 20,
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
            Self.serve(requests, gpu: gpu, gather: gather, budget: MemoryBudget(capacity: inFlightBytes), times: times)
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
    public struct Declined: Error, Sendable {
        public var reason: String
    }

    /// Draws `job` on the GPU thread; returns its rows (or a stream of them) to encode.
    public func draw(_ job: PreparedJob) throws -> Drawing {
        let request = Request(job: job)
        guard requests.push(request) else { throw GlsliceError(.unavailable, "the GPU thread has stopped") }
        request.done.wait()
        return try request.answer.get()
    }

    /// Lets the requests queued finish, then ends the GPU thread.
    public func shutdown() {
        requests.close()
        thread.wait()
    }

    private static func serve(_ requests: BoundedQueue<Request>, gpu: GPURenderer, gather: Duration,
                              budget: MemoryBudget, times: StageTimes) {
        let atlas: AtlasRenderer<Request>
        do {
            // Answers wait on the read back, so there is nothing to overlap it with.
            atlas = try AtlasRenderer<Request>(renderer: gpu, ring: nil, budget: budget, times: times) { placed, pixels in
                for p in placed {
                    p.item.answer = pixels.map { pixels in
                        .rows(DrawnRows(buffer: pixels.buffer, offset: pixels.offset(x: p.x, y: p.y), rows: p.size.height,
                                        rowStride: pixels.width * 4))
                    }
                    p.item.done.signal()
                }
            }
        } catch {
            while let request = requests.pop() {
                request.answer = .failure(error)
                request.done.signal()
            }
            return
        }
        let clock = ContinuousClock()
        while true {
            var start = clock.now
            let batch = requests.popBatch(limit: 256, gathering: gather)
            times.add(.drawWait, clock.now - start)
            if batch.isEmpty { break }
            var large: [Request] = []
            for request in batch.sorted(by: { $0.job.size.height > $1.job.size.height }) {
                let job = request.job
                guard atlas.fits(job.size) else {
                    large.append(request)
                    continue
                }
                do {
                    try atlas.add(request, size: job.size) {
                        start = clock.now
                        defer { times.add(.draw, clock.now - start, items: 1) }
                        return try gpu.upload(job.plan, source: job.source.image, sourceKey: job.source.key)
                    }
                } catch {
                    request.answer = .failure(error)
                    request.done.signal()
                }
            }
            atlas.finish()
            for request in large { stream(request, gpu: gpu, budget: budget, times: times) }
            gpu.trimTextureCache()
        }
    }

    /// A large output: its caller gets the stream at once and encodes while the bands come.
    private static func stream(_ request: Request, gpu: GPURenderer, budget: MemoryBudget, times: StageTimes) {
        let stream = BandStream(depth: 4)
        request.answer = .success(.stream(stream))
        request.done.signal()
        GPUBandWriter(gpu: gpu, budget: budget, times: times).send(request.job, to: stream, ring: nil)
    }
}
