import Foundation

/// One GPU draw thread shared by many callers (serve's render threads): it
/// opens the GL context on its own thread, makes every GL call there, and
/// runs `GPUDrawLoop` over the requests, as the batch's draw stage does. The
/// caller is not held while its job waits: `draw(_:then:)` hands the drawn
/// rows (or a strip stream the GPU thread keeps filling) to a completion,
/// which queues the encoding.
package final class GPUDrawThread: Sendable {
    /// Called on the GPU thread once a job is drawn: keep it short (queue the encoding).
    package typealias Completion = @Sendable (Result<Drawing, any Error>) -> Void

    private struct Request: Sendable {
        var job: PreparedJob
        var completion: Completion
    }

    private let requests: BoundedQueue<Request>
    private let thread: WorkerThreads
    /// The GL renderer's name (`GL_RENDERER`).
    package let renderer: String
    /// What the GPU can draw: a caller checks a job against it before queuing it.
    package let limits: GPUContext.GLLimits
    /// What it finishes without a render thread waiting on it (the hybrid's rule).
    package let finishRule: GPUFinishRule
    /// The GPU memory its session holds (serve's `/metrics`).
    package let memory: GPUMemory
    /// Busy time of the GPU thread (draw, draw-wait, read-back).
    package let times: StageTimes

    /// Opens the GPU on a new thread; throws what `Backend.openSession` throws there
    /// (serve's opener for `BackendResolution.resolve`).
    /// - Parameters:
    ///   - acceptSoftware: false for `--backend auto`, which throws `Backend.Declined`
    ///     with `auto`'s reason when the only GL is a software rasteriser.
    ///   - gather: the longest the GPU thread gathers requests for one atlas.
    ///   - gap: it stops gathering when no request came for this long.
    ///   - inFlightBytes: drawn pixels allowed to wait for their encoders.
    ///   - gpuEncoding: encode `fast` PNGs with compute passes (nil: on hardware GPUs).
    package convenience init(device: Int?, acceptSoftware: Bool = true, gather: Duration = .milliseconds(2),
                gap: Duration = .microseconds(200), inFlightBytes: Int = 512 << 20, gpuEncoding: Bool? = nil,
                memory: GPUMemory = GPUMemory(), times: StageTimes = StageTimes()) throws {
        let requests = BoundedQueue<Request>(capacity: 1 << 16)
        try self.init(requests: requests, device: device, acceptSoftware: acceptSoftware, gpuEncoding: gpuEncoding,
                      memory: memory, times: times) { gpu in
            Self.serve(requests, gpu: gpu, gather: gather, gap: gap, budget: MemoryBudget(capacity: inFlightBytes), times: times)
        }
    }

    /// The hybrid's GPU thread (serve's `hybrid`, issue 68): it draws the calls
    /// `scheduler` makes rather than requests queued here, and hands each job on
    /// to the scheduler (delivered, or declined back to the CPU).
    package convenience init<Item>(device: Int?, acceptSoftware: Bool = true, hybrid scheduler: HybridScheduler<Item, Drawing>,
                                   job: @escaping @Sendable (Item) -> PreparedJob, gather: Duration = .milliseconds(2),
                                   gap: Duration = .microseconds(200), inFlightBytes: Int = 512 << 20, gpuEncoding: Bool? = nil,
                                   memory: GPUMemory = GPUMemory(), times: StageTimes = StageTimes()) throws {
        // No requests are queued here: one closed queue, so `draw` answers "stopped" rather than wait.
        let none = BoundedQueue<Request>(capacity: 1)
        none.close()
        try self.init(requests: none, device: device, acceptSoftware: acceptSoftware,
                      gpuEncoding: gpuEncoding, memory: memory, times: times) { gpu in
            let loop = GPUDrawLoop<HybridScheduler<Item, Drawing>.Claim>(gpu: gpu, budget: MemoryBudget(capacity: inFlightBytes),
                                                                         times: times, ring: nil)
            do {
                try loop.run(hybrid: scheduler, job: job, gather: gather, gap: gap)
            } catch {
                // No atlas could be made: the render threads draw everything.
            }
            scheduler.gpuEnded()
        }
    }

    private init(requests: BoundedQueue<Request>, device: Int?, acceptSoftware: Bool, gpuEncoding: Bool?, memory: GPUMemory,
                 times: StageTimes, body: @escaping @Sendable (GPUSession) -> Void) throws {
        self.requests = requests
        self.times = times
        self.memory = memory
        let opened = Locked<Result<(String, GPUContext.GLLimits, GPUFinishRule), any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        thread = WorkerThreads(count: 1, name: "glslice-gpu") { _ in
            let gpu: GPUSession
            do {
                gpu = try Backend.openSession(device: device, memory: memory, acceptSoftware: acceptSoftware, gpuEncoding: gpuEncoding)
                let rule = GPUFinishRule(readying: gpu) // its compute encoder and shaders made before the first request
                opened.withLock { $0 = .success((gpu.context.renderer, gpu.context.limits, rule)) }
            } catch {
                opened.withLock { $0 = .failure(error) }
                ready.signal()
                return
            }
            ready.signal()
            body(gpu)
        }
        ready.wait()
        switch opened.withLock({ $0 }) {
        case .success(let (renderer, limits, rule))?:
            self.renderer = renderer
            self.limits = limits
            finishRule = rule
        case .failure(let error)?:
            thread.wait()
            throw error
        case nil:
            throw InternalErrors.gpuThreadEndedEarly()
        }
    }

    /// Queues `job` for the GPU thread; `completion` gets its rows (or a stream
    /// of them) on that thread once drawn, or the error.
    package func draw(_ job: PreparedJob, then completion: @escaping Completion) {
        guard requests.push(Request(job: job, completion: completion)) else {
            completion(.failure(UnavailableErrors.gpuThreadStopped()))
            return
        }
    }

    /// Draws `job` and waits for it: `draw(_:then:)` for a caller with nothing else to do.
    package func draw(_ job: PreparedJob) throws -> Drawing {
        let answer = Locked<Result<Drawing, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        draw(job) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try (answer.withLock { $0 } ?? .failure(InternalErrors.noAnswer())).get()
    }

    /// Lets the requests queued finish, then ends the GPU thread.
    package func shutdown() {
        requests.close()
        thread.wait()
    }

    private static func serve(_ requests: BoundedQueue<Request>, gpu: GPUSession, gather: Duration, gap: Duration,
                              budget: MemoryBudget, times: StageTimes) {
        // The callers wait on the read back, so there is nothing to overlap it with: no ring.
        let loop = GPUDrawLoop<Request>(gpu: gpu, budget: budget, times: times, ring: nil, gather: gather, gap: gap)
        do {
            try loop.run(requests, job: \.job) { request, drawn in request.completion(drawn) }
        } catch {
            while let request = requests.pop() { request.completion(.failure(error)) }
        }
    }
}
