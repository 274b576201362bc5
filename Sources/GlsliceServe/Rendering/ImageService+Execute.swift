import Foundation
import GlsliceKit
import NIOCore

/// What a render thread does with a request `ImageService.answer` queued: prepare, draw (on the shared
/// GPU thread, or here), encode, cache and answer.
extension ImageService {
    /// On a render thread: source, plan, digest, cache; then the draw (on the
    /// shared GPU thread, or here on the CPU) and the encode, here.
    func execute(key: String, id: UInt64, file: String, request: RenderRequest, negotiated: Bool) {
        defer { updateGauges() }
        guard flights.isWanted(key, id: id) else { return } // every request timed out while queued
        updateGauges()
        let started = ContinuousClock.now
        var job: PreparedJob
        let digest: String, held: Int
        do {
            var stamps = FileStamp.contents(of: file, in: options.root.scope).map { [$0] } ?? []
            let source = try sources.resolve(input: file, outputScale: request.outputScale) { stamps.append(FileStamp(path: $0, in: options.root.scope)) }
            job = try PreparedJob(request: request, source: source, limits: options.limits)
            if job.request.format == .webp, let why = answers.webPRefusal(job.size) {
                guard negotiated else { throw why }
                job = job.written(as: .png)
            }
            digest = job.digest // once: it encodes the request as JSON and hashes it
            metrics.stageTimes.add(.prepare, ContinuousClock.now - started, items: 1)
            memo.remember(key, RequestMemo.Entry(digest: digest, format: job.request.format ?? .png, stamps: stamps))
            if let image = cache.get(digest) {
                return flights.finish(key, id: id, .success(EncodedAnswer(image: image, digest: digest, format: job.request.format ?? .png)))
            }
            held = job.request.format == .webp ? AnswerBudget.webPEncoding(job.size) : 0
            job.prepareAhead() // here, not on the shared GPU thread
            guard held == 0 || answers.reserveEncoding(held) else {
                metrics.answersRefused.increment()
                return flights.finish(key, id: id, .failure(.webPEncodesFull))
            }
            beforeRender?()
        } catch {
            return fail(key: key, id: id, error, file: file)
        }
        if let hybrid {
            // Hybrid: one scheduler for this thread's siblings and the GPU thread. What the GPU cannot
            // draw is drawn here, so a URL never succeeds or fails by chance; a WebP, whose encoding
            // memory is held once, is never run twice, so it stays on the CPU too.
            let render = HybridRender(job: job, digest: digest, key: key, id: id, file: file, started: started, held: held)
            let cpuOnly = GPUFinishRule.cpuOnly(job, limits: gpu?.limits, rule: gpu?.finishRule, runsOnce: held > 0)
            if !hybrid.submit(render, cpuOnly: cpuOnly) {
                answers.releaseEncoding(held)
                fail(key: key, id: id, UnavailableErrors.serverStopping(), file: file)
            }
            return
        }
        let image = job.source.image
        if let refusal = gpu?.limits.refusal(sourceWidth: image.width, sourceHeight: image.height) { // --backend gpu: refused before a GL call, whichever thread took it
            answers.releaseEncoding(held)
            return fail(key: key, id: id, refusal, file: file)
        }
        guard let gpu else {
            return encode(job, digest: digest, drawing: .here, key: key, id: id, file: file, started: started, held: held)
        }
        // The render thread goes back to the pool while the job waits for the GPU thread;
        // once drawn, the encoding is queued on the pool again (it was admitted already).
        atGPU.withLock { $0 += 1 }
        let drawnJob = job
        gpu.draw(drawnJob) { [self] drawn in
            atGPU.withLock { $0 -= 1 }
            let queued = pool.resume { [self] in
                switch drawn {
                case .success(let drawing):
                    encode(drawnJob, digest: digest, drawing: drawing, key: key, id: id, file: file, started: started, held: held)
                case .failure(let error):
                    answers.releaseEncoding(held)
                    fail(key: key, id: id, error, file: file)
                }
            }
            if !queued {
                answers.releaseEncoding(held)
                fail(key: key, id: id, UnavailableErrors.serverStopping(), file: file)
            }
        }
    }

    /// On a render thread: the encode step into memory, the cache, the answer.
    /// `held` bytes of `--answer-mb` (a WebP's encoding memory) are let go once encoded.
    /// `claim` (the hybrid's race) is asked once it is encoded or failed: false drops this copy.
    func encode(_ job: PreparedJob, digest: String, drawing: Drawing, key: String, id: UInt64, file: String,
                started: ContinuousClock.Instant, held: Int, claim: (() -> Bool)? = nil) {
        do {
            let data: [UInt8]
            do { // the encoding memory goes before the answer is handed on
                defer { answers.releaseEncoding(held) }
                data = try Engine.encode(job, drawing: drawing, to: .memory, times: metrics.stageTimes).data ?? []
            }
            guard claim?() ?? true else { return }
            let image = ByteBuffer(bytes: data)
            cache.put(digest, image)
            metrics.renders.increment()
            metrics.renderSeconds.record(ContinuousClock.now - started)
            flights.finish(key, id: id, .success(EncodedAnswer(image: image, digest: digest, format: job.request.format ?? .png)))
        } catch {
            guard claim?() ?? true else { return }
            fail(key: key, id: id, error, file: file)
        }
    }

    /// Queues one drain of the hybrid's scheduler on the render threads (its hook, once per job added).
    func queueHybridDrain() {
        if !pool.resume({ [self] in drainHybrid() }) { drainHybrid() } // stopping: the caller's thread drains
    }

    /// On a render thread: one piece of the hybrid's work (a render drawn here, the rest of one the GPU
    /// drew, or a backup of one it holds), if any waits.
    func drainHybrid() {
        guard let hybrid, let work = hybrid.nextForCPU(wait: false) else { return }
        let start = ContinuousClock.now
        let render = work.item
        let drawing: Drawing = if case .rest(_, _, let drawn) = work { drawn } else { .here }
        encode(render.job, digest: render.digest, drawing: drawing, key: render.key, id: render.id, file: render.file,
               started: render.started, held: render.held) { hybrid.cpuClaim(work) }
        hybrid.cpuRan(work, seconds: (ContinuousClock.now - start).inSeconds)
    }

    func fail(key: String, id: UInt64, _ error: any Error, file: String) {
        metrics.renderFailures.increment()
        flights.finish(key, id: id, .failure(Refusal(error, file: file, root: options.root)))
    }
}
