import Foundation
import GlsliceKit
import NIOCore

/// Turns render URLs into images. `answer` is the request's path through the
/// parts, each a type of its own: the signature (`URLSigner`), the query
/// (`QueryOptions`), the format (`FormatNegotiation`), the memo of what a key
/// rendered to (`RequestMemo`), the cache of encoded answers
/// (`ResponseCache`), and coalescing with a per-request timeout
/// (`RenderFlights`). `execute` and `encode` (ImageService+Execute.swift) run on the render pool.
final class ImageService: Sendable {
    let options: ServeOptions
    let metrics: ServeMetrics
    let pool: WorkerPool
    /// The GPU thread every render shares; nil draws on the CPU, on the render threads.
    let gpu: GPUDrawThread?
    /// Why `auto` took the CPU over a software rasteriser (`/healthz` says it; it is no warning).
    let autoReason: String?
    /// What renders draw with: `cpu`, or `gpu (RENDERER)`.
    let backendDescription: String
    /// Renders handed to the GPU thread and not yet back on a render thread (`--backend gpu`).
    let atGPU = Locked(0)
    /// `hybrid`, or `auto` on a hardware GPU: the render threads and the GPU thread
    /// take renders from one `HybridScheduler`, as batch's workers do (issue 68).
    /// Each render submitted, and each job the GPU hands on, queues one drain on
    /// the render threads. nil: one side draws everything.
    let hybrid: HybridScheduler<HybridRender, Drawing>?
    let sources: SourceCache
    let cache: ResponseCache
    let memo: RequestMemo
    let flights = RenderFlights<EncodedAnswer>()
    /// `--answer-mb`: a WebP's encoding memory is held in it too (`WebPAdmission`).
    let answers: AnswerBudget
    /// Runs on the render thread just before a render (tests hold renders here).
    let beforeRender: (@Sendable () -> Void)?

    /// A render's result: the encoded bytes, their digest and format.
    struct EncodedAnswer: Sendable { var image: ByteBuffer, digest: String, format: ImageFormat }

    /// Renders waiting (for a render thread or for the GPU) and renders running.
    var load: (queued: Int, running: Int) {
        let pool = pool.load
        return (pool.queued + atGPU.withLock { $0 }, pool.running)
    }

    init(options: ServeOptions, metrics: ServeMetrics, answers: AnswerBudget, warn: @escaping @Sendable (String) -> Void,
         beforeRender: (@Sendable () -> Void)? = nil) throws {
        self.options = options
        self.answers = answers
        self.metrics = metrics
        self.beforeRender = beforeRender
        let memory = GPUMemory(budget: options.gpuBudgetBytes)
        // `hybrid` and `auto` may draw on both sides: their GPU thread takes its calls from the scheduler.
        let drains = ServiceBox()
        let scheduler = options.backend == .hybrid || options.backend == .auto
            ? HybridScheduler<HybridRender, Drawing>(cpuWorkers: options.workers, capacity: Int(Int32.max), backupsWhileOpen: true,
                                                     cost: { Double($0.job.size.pixelCount + HybridRender.jobCostPixels) },
                                                     pixels: { $0.job.size.pixelCount },
                                                     onCPUWork: { drains.service?.queueHybridDrain() })
            : nil
        let resolved = try BackendResolution.resolve(options.backend, for: .serve) { [metrics] acceptSoftware in
            let thread = if let scheduler {
                try GPUDrawThread(device: options.device, acceptSoftware: acceptSoftware, hybrid: scheduler, job: \.job,
                                  gpuEncoding: options.gpuEncoding, memory: memory, times: metrics.stageTimes)
            } else {
                try GPUDrawThread(device: options.device, acceptSoftware: acceptSoftware, gpuEncoding: options.gpuEncoding,
                                  memory: memory, times: metrics.stageTimes)
            }
            return (thread, thread.renderer)
        }
        if let warning = resolved.warning { warn(warning) }
        let gpu = resolved.gpu
        self.gpu = gpu
        autoReason = resolved.reason
        let hybrid = resolved.drawsOnBoth ? scheduler : nil
        hybrid?.guessGPU(gpu?.finishRule.speedGuess, software: gpu?.finishRule.software ?? false)
        self.hybrid = hybrid
        backendDescription = resolved.description
        pool = WorkerPool(workers: options.workers, queueLimit: options.queueLimit, beforeStopping: {
            hybrid?.close()
            gpu?.shutdown()
        })
        sources = SourceCache(capacityBytes: options.sourceCacheBytes, maxPixels: options.limits.maxSourcePixels,
                              scope: options.root.scope)
        cache = ResponseCache(capacityBytes: options.cacheBytes)
        memo = RequestMemo(scope: options.root.scope)
        drains.service = self
    }

    /// Stops the pool: the GPU thread first draws what it was given, then the queue drains.
    func shutdown() { pool.shutdown() }

    /// `path` is the request's escaped path (`/render/...`), `query` its raw query,
    /// `accept` its `Accept` (WebP or PNG when the URL names no `format`).
    func answer(path: Substring, query rawQuery: Substring?, ifNoneMatch: String?, accept: String? = nil) async -> ImageAnswer {
        let query = QueryItems(raw: rawQuery)
        // First, so that an unsigned request learns nothing, not even whether a file exists.
        if let signer = options.signer, !(query.map { signer.isValid(path: path, query: $0) } ?? false) { return .refused(.badSignature) }
        guard let query else { return .refused(.malformedEscape) }
        guard path.hasPrefix("/render/"), let file = options.root.file(forEscaped: path.dropFirst("/render/".count)) else {
            return .refused(.notFound)
        }
        var request: RenderRequest
        do { request = try QueryOptions.request(from: query) } catch { return .refused(Refusal(error, file: file, root: options.root)) }
        // Settled before the key: the format is part of the key, the digest and the ETag.
        let (format, negotiated) = FormatNegotiation(autoWebP: options.autoWebP).format(asked: request.format, accept: accept)
        request.format = format
        let key = file + "\n" + request.canonicalJSON + (negotiated ? "\nnegotiated" : "")
        if let known = memo.entry(for: key) {
            let tag = EntityTag(digest: known.digest)
            if tag.isMatched(by: ifNoneMatch) { return .notModified(etag: tag.header) }
            if let image = cache.get(known.digest) {
                metrics.cacheHits.increment()
                return .image(image, format: known.format, etag: tag.header)
            }
        }
        metrics.cacheMisses.increment()
        switch await render(key: key, file: file, request: request, negotiated: negotiated) {
        case .success(let rendered):
            let tag = EntityTag(digest: rendered.digest)
            return tag.isMatched(by: ifNoneMatch) ? .notModified(etag: tag.header)
                                                 : .image(rendered.image, format: rendered.format, etag: tag.header)
        case .failure(let refusal): return .refused(refusal)
        }
    }

    /// Joins the render of `key` in flight, or queues one on the pool.
    private func render(key: String, file: String, request: RenderRequest, negotiated: Bool) async -> Result<EncodedAnswer, Refusal> {
        let seconds = options.timeout.inSeconds
        return await flights.join(
            key, timeout: options.timeout,
            timedOut: .timedOut(seconds: seconds),
            notStarted: .queueFull(waiting: options.queueLimit),
            told: { [metrics] event in (event == .coalesced ? metrics.coalesced : metrics.renderFailures).increment() }
        ) { [self] id in
            defer { updateGauges() }
            return pool.submit { [self] in execute(key: key, id: id, file: file, request: request, negotiated: negotiated) }
        }
    }

    /// Sets the gauges from what is held now (also before `/metrics` is answered, so GPU bytes are current).
    func updateGauges() {
        let load = self.load
        metrics.queueDepth.set(Double(load.queued))
        metrics.rendersRunning.set(Double(load.running))
        metrics.cacheBytes.set(Double(cache.stats.bytes))
        metrics.gpuBytes.set(Double(gpu?.memory.bytes ?? 0))
    }
}
