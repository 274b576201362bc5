import Foundation
import GlsliceKit
import NIOCore

/// Turns render URLs into PNGs: through the source root, the one option
/// schema, a response cache keyed by job digest, coalescing of identical
/// requests in flight, and the render pool.
final class RenderService: Sendable {
    let options: ServeOptions
    let metrics: ServeMetrics
    let pool: RenderPool
    /// The GPU thread every render shares; nil draws on the CPU, on the render threads.
    let gpu: SharedGPUDrawer?
    /// What renders draw with: `cpu`, or `gpu (RENDERER)`.
    let backendDescription: String
    /// Renders handed to the GPU thread and not yet back on a render thread.
    private let atGPU = Locked(0)
    /// `hybrid`, or `auto` on a hardware GPU: a render thread draws on the CPU
    /// itself when the GPU thread already has a render per render thread.
    private let drawsOnBoth: Bool

    /// Renders waiting (for a render thread or for the GPU) and renders running.
    var load: (queued: Int, running: Int) {
        let pool = pool.load
        return (pool.queued + atGPU.withLock { $0 }, pool.running)
    }
    private let sources: SourceCache
    private let cache: ResponseCache
    /// Request key → the digest it rendered to, and the files that decided it.
    private let memo = Locked<[String: Memo]>([:])
    private let flights = Locked(Flights())
    /// Runs on the render thread just before a render (tests hold renders here).
    let beforeRender: (@Sendable () -> Void)?

    private struct Memo {
        var digest: String
        /// What the digest was written as (a negotiated WebP may have fallen back to PNG).
        var format: ImageFormat
        var stamps: [FileStamp]
    }

    /// A render's result: the encoded bytes, their digest and format.
    private typealias Rendered = (image: ByteBuffer, digest: String, format: ImageFormat)

    /// How many request keys the memo holds and the file stamps they keep, all told.
    var memoSize: (keys: Int, stamps: Int) {
        memo.withLock { ($0.count, $0.values.reduce(0) { $0 + $1.stamps.count }) }
    }

    private typealias Waiter = CheckedContinuation<Result<Rendered, Refusal>, Never>

    private struct Flights {
        var byKey: [String: Flight] = [:]
        var nextID: UInt64 = 0
    }

    private struct Flight {
        var id: UInt64
        /// Each waiting request by its own number: it may time out alone.
        var waiters: [UInt64: Waiter]
    }

    /// `--answer-mb`: a WebP's encoding memory is held in it too (`WebPWriter.encodeBytesPerPixel`).
    private let answers: AnswerBudget

    init(options: ServeOptions, metrics: ServeMetrics, answers: AnswerBudget, warn: @escaping @Sendable (String) -> Void,
         beforeRender: (@Sendable () -> Void)? = nil) throws {
        self.options = options
        self.answers = answers
        self.metrics = metrics
        self.beforeRender = beforeRender
        let gpu = try SharedGPUDrawer.open(options.backend, device: options.device, times: metrics.stageTimes, warn: warn)
        self.gpu = gpu
        drawsOnBoth = Backend.drawsOnBoth(options.backend, openedGPU: gpu != nil)
        backendDescription = (gpu?.description ?? "cpu") + (drawsOnBoth ? " and cpu (hybrid)" : "")
        pool = RenderPool(workers: options.workers, queueLimit: options.queueLimit, beforeStopping: { gpu?.shutdown() })
        sources = SourceCache(capacityBytes: options.sourceCacheBytes, maxPixels: options.limits.maxSourcePixels,
                              scope: options.root.scope)
        cache = ResponseCache(capacityBytes: options.cacheBytes)
    }

    /// Stops the pool, which first lets the GPU thread draw what it was given
    /// (its answers are encoded on the render threads), then drains its queue.
    func shutdown() { pool.shutdown() }

    /// `path` is the request's escaped path (`/render/...`), `query` its raw query.
    /// `accept` is the request's `Accept`, which picks WebP or PNG when the URL names no `format`.
    func answer(path: Substring, query rawQuery: Substring?, ifNoneMatch: String?, accept: String? = nil) async -> RenderAnswer {
        let query = QueryItems(raw: rawQuery)
        // First, so that an unsigned request learns nothing, not even whether a file exists.
        if let signer = options.signer {
            guard let query, signer.isValid(path: path, query: query) else { return .refused(.badSignature) }
        }
        guard let query else { return .refused(Refusal(statusCode: 400, message: "the query has a malformed %-escape")) }
        let escaped = path.dropFirst("/render/".count)
        guard path.hasPrefix("/render/"), let file = options.root.file(forEscaped: escaped) else { return .refused(.notFound) }
        var request: RenderRequest
        do {
            request = try RenderQuery.request(from: query)
        } catch {
            return .refused(refusal(for: error, file: file))
        }
        // Settled before the key: the format is part of the key, the digest and the ETag.
        // A negotiated WebP (no format in the URL) falls back to PNG where WebP cannot
        // hold the output, so it keys apart from an explicit format=webp, which is refused there.
        let negotiated = request.format == nil
        request.format = request.format ?? (options.autoWebP && Self.acceptsWebP(accept) ? .webp : .png)
        let key = file + "\n" + request.canonicalJSON + (negotiated ? "\nnegotiated" : "")
        if let memo = remembered(key) {
            if Self.matches(ifNoneMatch, memo.digest) { return .notModified(etag: Self.etag(memo.digest)) }
            if let image = cache.get(memo.digest) {
                metrics.cacheHits.increment()
                return .image(image, format: memo.format, etag: Self.etag(memo.digest))
            }
        }
        metrics.cacheMisses.increment()
        switch await render(key: key, file: file, request: request, negotiated: negotiated) {
        case .success(let rendered):
            if Self.matches(ifNoneMatch, rendered.digest) { return .notModified(etag: Self.etag(rendered.digest)) }
            return .image(rendered.image, format: rendered.format, etag: Self.etag(rendered.digest))
        case .failure(let refusal):
            return .refused(refusal)
        }
    }

    /// Joins the render of `key` in flight, or starts one. A request that waits
    /// past `--timeout` gets 503 alone; the render goes on, stays in flight for
    /// the retries (which join it rather than start another), and is cached.
    private func render(key: String, file: String, request: RenderRequest, negotiated: Bool) async -> Result<Rendered, Refusal> {
        await withCheckedContinuation { continuation in
            let (flight, waiter, isNew) = flights.withLock { flights -> (UInt64, UInt64, Bool) in
                flights.nextID += 1
                let waiter = flights.nextID
                if let flight = flights.byKey[key] {
                    flights.byKey[key]?.waiters[waiter] = continuation
                    return (flight.id, waiter, false)
                }
                flights.byKey[key] = Flight(id: waiter, waiters: [waiter: continuation])
                return (waiter, waiter, true)
            }
            if isNew {
                let submitted = pool.submit { [self] in
                    execute(key: key, id: flight, file: file, request: request, negotiated: negotiated)
                }
                updateGauges()
                guard submitted else {
                    finish(key: key, id: flight, .failure(Refusal(statusCode: 503, message: "the render queue is full (\(options.queueLimit) waiting); try again", retryAfter: 1)))
                    return
                }
            } else {
                metrics.coalesced.increment()
            }
            let timeout = options.timeout
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                let refusal = Refusal(statusCode: 503, message: "the render took longer than --timeout (\(formatNumber(seconds)) s); try again", retryAfter: 1)
                if expire(key: key, flight: flight, waiter: waiter, refusal) { metrics.renderFailures.increment() }
            }
        }
    }

    /// Answers one waiter of flight `flight` with `refusal`; false when it was answered already.
    private func expire(key: String, flight: UInt64, waiter: UInt64, _ refusal: Refusal) -> Bool {
        let continuation = flights.withLock { flights -> Waiter? in
            guard flights.byKey[key]?.id == flight else { return nil }
            return flights.byKey[key]?.waiters.removeValue(forKey: waiter)
        }
        continuation?.resume(returning: .failure(refusal))
        return continuation != nil
    }

    /// On a render thread: source, plan, digest, cache; then the draw (on the
    /// shared GPU thread, or here on the CPU) and the encode, here.
    private func execute(key: String, id: UInt64, file: String, request: RenderRequest, negotiated: Bool) {
        defer { updateGauges() }
        // Nobody is waiting any more (every request timed out while queued): skip the work.
        let wanted = flights.withLock { flights -> Bool in
            guard let flight = flights.byKey[key], flight.id == id else { return false }
            if flight.waiters.isEmpty { flights.byKey[key] = nil }
            return !flight.waiters.isEmpty
        }
        guard wanted else { return }
        updateGauges()
        let clock = ContinuousClock()
        let started = clock.now
        var prepared: PreparedJob
        let held: Int
        do {
            let stamps = FileStamp.stamps(for: file, outputScale: request.outputScale, in: options.root.scope)
            let source = try sources.resolve(input: file, outputScale: request.outputScale)
            prepared = try PreparedJob(request: request, source: source, limits: options.limits)
            if prepared.request.format == .webp, let why = webPRefusal(prepared.size) {
                guard negotiated else { throw why }
                prepared = prepared.written(as: .png)
            }
            let job = prepared
            metrics.stageTimes.add(.prepare, clock.now - started, items: 1)
            remember(key, Memo(digest: job.digest, format: job.request.format ?? .png, stamps: stamps))
            if let image = cache.get(job.digest) {
                finish(key: key, id: id, .success((image, job.digest, job.request.format ?? .png)))
                return
            }
            held = job.request.format == .webp ? job.size.pixelCount * WebPWriter.encodeBytesPerPixel : 0
            guard held == 0 || answers.reserveEncoding(held) else {
                metrics.answersRefused.increment()
                finish(key: key, id: id, .failure(Refusal(statusCode: 503, message: "too many WebP encodes are running for --answer-mb; try again", retryAfter: 1)))
                return
            }
            beforeRender?()
        } catch {
            fail(key: key, id: id, error, file: file)
            return
        }
        let gpuIsFull = drawsOnBoth && atGPU.withLock { $0 } >= pool.workers
        guard let gpu, !gpuIsFull else {
            encode(prepared, drawing: .onCPU, key: key, id: id, file: file, started: started, held: held)
            return
        }
        let job = prepared
        // The render thread goes back to the pool while the job waits for the GPU thread;
        // once drawn, the encoding is queued on the pool again (it was admitted already).
        atGPU.withLock { $0 += 1 }
        gpu.draw(job) { [self] drawn in
            atGPU.withLock { $0 -= 1 }
            let queued = pool.resume { [self] in
                switch drawn {
                case .success(let drawing): encode(job, drawing: drawing, key: key, id: id, file: file, started: started, held: held)
                case .failure(let error):
                    answers.releaseEncoding(held)
                    fail(key: key, id: id, error, file: file)
                }
            }
            if !queued {
                answers.releaseEncoding(held)
                fail(key: key, id: id, GlsliceError(.unavailable, "the server is stopping"), file: file)
            }
        }
    }

    /// Why a WebP of `size` is not encoded here: past WebP's side limit, or
    /// needing more than all of `--answer-mb` to encode (a 400: asking again will not help).
    private func webPRefusal(_ size: PixelSize) -> GlsliceError? {
        if let why = WebPWriter.refusal(for: size) { return GlsliceError(.badInput, option: .format, why) }
        let bytes = size.pixelCount * WebPWriter.encodeBytesPerPixel
        guard bytes > answers.capacity else { return nil }
        return GlsliceError(.badInput, option: .format,
            "webp: encoding a \(size) px WebP takes about \(bytes >> 20) MiB, more than --answer-mb \(answers.capacity >> 20) allows; ask for format=png")
    }

    /// On a render thread: the encode step into memory, the cache, the answer.
    /// `held` bytes of `--answer-mb` (a WebP's encoding memory) are let go once encoded.
    private func encode(_ job: PreparedJob, drawing: Drawing, key: String, id: UInt64, file: String,
                        started: ContinuousClock.Instant, held: Int) {
        do {
            let data: [UInt8]
            do {
                defer { answers.releaseEncoding(held) }
                data = try EncodeStep.encode(job, drawing: drawing, to: .memory, times: metrics.stageTimes).data ?? []
            }
            let image = ByteBuffer(bytes: data)
            cache.put(job.digest, image)
            metrics.renders.increment()
            metrics.renderSeconds.record(ContinuousClock.now - started)
            finish(key: key, id: id, .success((image, job.digest, job.request.format ?? .png)))
        } catch {
            fail(key: key, id: id, error, file: file)
        }
    }

    private func fail(key: String, id: UInt64, _ error: any Error, file: String) {
        metrics.renderFailures.increment()
        finish(key: key, id: id, .failure(refusal(for: error, file: file)))
    }

    /// Answers everyone waiting on flight `id` of `key`; false when it was already answered.
    @discardableResult
    private func finish(key: String, id: UInt64, _ result: Result<Rendered, Refusal>) -> Bool {
        let waiters = flights.withLock { flights -> [Waiter]? in
            guard let flight = flights.byKey[key], flight.id == id else { return nil }
            flights.byKey[key] = nil
            return Array(flight.waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: result) }
        return true
    }

    private func remembered(_ key: String) -> Memo? {
        guard let memo = memo.withLock({ $0[key] }) else { return nil }
        return memo.stamps.allSatisfy({ $0.isCurrent(in: options.root.scope) }) ? memo : nil
    }

    private func remember(_ key: String, _ entry: Memo) {
        memo.withLock { memo in
            if memo.count >= 100_000 { memo.removeAll(keepingCapacity: true) } // a bound, not an LRU
            memo[key] = entry
        }
    }

    private func updateGauges() {
        let load = self.load
        metrics.queueDepth.set(Double(load.queued))
        metrics.rendersRunning.set(Double(load.running))
        metrics.cacheBytes.set(Double(cache.stats.bytes))
    }

    /// What a client is told of a failure (see `Refusal.init(_:file:root:)`).
    func refusal(for error: any Error, file: String) -> Refusal {
        Refusal(error, file: file, root: options.root)
    }

    static func etag(_ digest: String) -> String { "\"\(digest)\"" }

    /// Whether `Accept` names `image/webp` with a q above 0. A wildcard does
    /// not: a client that lists no WebP may not read it (imgproxy decides so too).
    static func acceptsWebP(_ accept: String?) -> Bool {
        guard let accept else { return false }
        return accept.split(separator: ",").contains { range in
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "image/webp" else { return false }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return q > 0
        }
    }

    /// If-None-Match: `*`, or a list of entity tags (weak comparison, RFC 9110 §13.1.2).
    static func matches(_ header: String?, _ digest: String) -> Bool {
        guard let header else { return false }
        let tag = etag(digest)
        return header.split(separator: ",").contains { item in
            var item = item.trimmingCharacters(in: .whitespaces)
            if item.hasPrefix("W/") { item.removeFirst(2) }
            return item == "*" || item == tag
        }
    }
}
