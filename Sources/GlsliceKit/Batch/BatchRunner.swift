import Foundation

/// Runs a manifest as stages joined by bounded queues, each on its own threads:
///
///     read (1) → prepare (--jobs) → draw → encode (--jobs) → record
///
/// On the CPU, drawing happens inside the encode stage, strip by strip as the
/// encoder asks, so a job's rows are never copied between threads. On a GPU,
/// the calling thread, which owns the GL context, is the draw stage and does
/// nothing else. Outputs are atomic, and carry digests for `--resume`.
public final class BatchRunner: Sendable {
    let options: BatchOptions
    let cache: SourceCache
    let onError: @Sendable (String) -> Void
    let onProgress: (@Sendable (_ done: Int) -> Void)?
    /// Busy time per stage, for `--stats`.
    package let times = StageTimes()
    /// What `--resume` reads of finished outputs, and where this run records its own.
    let resumeIndex = ResumeIndex()

    /// - Parameters:
    ///   - onError: one line per failed job (`manifest:LINE: message`).
    ///   - onProgress: called after each job with the count so far.
    public init(options: BatchOptions, onError: @escaping @Sendable (String) -> Void,
                onProgress: (@Sendable (Int) -> Void)? = nil) {
        self.options = options
        self.cache = SourceCache(capacityBytes: options.cacheBytes, maxPixels: options.limits.maxSourcePixels)
        self.onError = onError
        self.onProgress = onProgress
    }

    /// Counts this shard's jobs for a progress bar's total, only when the manifest
    /// is a regular file: reading a pipe or FIFO to count it would consume the jobs.
    public static func countJobsIfRereadable(_ options: BatchOptions) throws -> Int? {
        var status = stat()
        guard stat(options.manifest, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return try countJobs(options)
    }

    /// Counts the non-blank lines of this shard.
    static func countJobs(_ options: BatchOptions) throws -> Int {
        let reader = try ManifestReader(path: options.manifest)
        var count = 0
        while let (number, _) = reader.nextLine() {
            if options.shard.owns(number - 1) { count += 1 }
        }
        return count
    }

    /// Runs the manifest. `auto` is the CPU here (`BackendResolution`), so
    /// no backend is ever fallen back from, and nothing is warned of.
    public func run() throws -> BatchSummary {
        let reader = try ManifestReader(path: options.manifest, outputFolder: options.outputFolder,
                                        allowOutside: options.allowOutsideOutputFolder, defaults: options.requestDefaults)
        try reader.outputs.create()
        let results = try options.results.map { try ResultsLog(path: $0, append: options.resume, manifest: options.manifest) }
        let resolved = try BackendResolution.resolve(options.backend, for: .batch, device: options.device,
                                                     memory: GPUMemory(budget: options.gpu.budgetBytes), gpuEncoding: options.gpu.gpuEncoding)
        let recorder = BatchRecorder(manifest: reader.path, results: results, resultsPath: options.results,
                                     backend: resolved.description, onError: onError, onProgress: onProgress)
        // Made before the clock starts, as the context is: it readies the GPU (its compute encoder compiled and checked).
        let drawStage = resolved.gpu.map { session in
            DrawStage.gpu(session, settings: options.gpu, budget: MemoryBudget(capacity: options.gpu.inFlightBytes),
                          recorder: recorder, times: times)
        }
        let start = Date()
        let sides = run(reader: reader, recorder: recorder, drawStage: drawStage, hybrid: resolved.drawsOnBoth, started: start)
        let wall = Date().timeIntervalSince(start)
        var summary = recorder.summary(seconds: wall, closing: true)
        summary.sides = sides.figures(wall: wall)
        summary.backendKind = resolved.backend.kind
        summary.stages = StageShare.shares(times, backend: resolved.backend.kind, workers: max(1, options.workers), wall: wall)
        summary.gpuEncoding = times.gpuEncoding
        (summary.glThread, summary.glThreadCPUSeconds) = times.glThreadWork
        var usage = rusage()
        if getrusage(RUSAGE_SELF.rawValue, &usage) == 0 {
            summary.processCPUSeconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        return summary
    }

    /// The stages. With no draw stage, each preparer draws and encodes its jobs on the CPU. With one
    /// and `hybrid`, `HybridScheduler` feeds both sides (`runHybrid`). Returns
    /// what each side did.
    @discardableResult
    func run(reader: ManifestReader, recorder: BatchRecorder, drawStage: DrawStage?,
             hybrid: Bool = false, started: Date, probe: (@Sendable (Stage) -> Void)? = nil) -> SideTally {
        if hybrid, let drawStage {
            return runHybrid(reader: reader, recorder: recorder, drawStage: drawStage, started: started, probe: probe)
        }
        let workers = max(1, options.workers)
        let toDraw = BoundedQueue<BatchJob>(capacity: drawStage == nil ? 1 : 1024)
        let toEncode = BoundedQueue<EncodeWork>(capacity: workers * 4)
        let encodeStage = EncodeStage(durable: options.durable, digestChunk: options.digestChunk, index: resumeIndex, recorder: recorder, times: times)
        let onCPU = drawStage == nil
        let gpuLimits = drawStage?.limits
        let times = self.times
        let tally = SideTally(workers: workers, gpu: !onCPU, times: times)
        /// Draws (where `work` says here) and encodes one job, counted for `--stats`.
        let encodeOne: @Sendable (EncodeWork) -> Void = { work in
            probe?(.encode)
            let start = ContinuousClock.now
            encodeStage.encode(work)
            tally.add(work.drawing, pixels: work.job.prepared.size.pixelCount, busy: ContinuousClock.now - start)
        }
        // The GPU packs whole queues of small outputs into one atlas, so it reads further ahead.
        let (read, prepare) = readAndPrepare(reader: reader, recorder: recorder, started: started, reading: onCPU ? workers * 4 : 1024,
                                             probe: probe, then: { ready in
            let image = ready.prepared.source.image
            if onCPU {
                // On the CPU the thread that prepared a job draws and encodes it: no hand-off to
                // another thread, so no wake-up and no context switch a job (issue 71).
                encodeOne(EncodeWork(job: ready, drawing: .here))
            } else if let refusal = gpuLimits?.refusal(sourceWidth: image.width, sourceHeight: image.height) {
                recorder.fail(ready.manifest, refusal, started: ready.started) // decided here, before a GL call
            } else {
                toDraw.push(ready)
            }
        }, done: { onCPU ? toEncode.close() : toDraw.close() })
        // What the GPU drew, encoded on the CPU (on the CPU alone, the preparers encode).
        let encode = WorkerThreads(count: onCPU ? 0 : workers, name: "glslice-enc") { _ in
            while let work = toEncode.pop() { encodeOne(work) }
        }
        if let drawStage {
            do {
                try drawStage.run(toDraw, toEncode)
            } catch {
                // No atlas could be made: every job still to draw fails with that error.
                while let job = toDraw.pop() { recorder.fail(job.manifest, error, started: job.started) }
            }
            toEncode.close()
        }
        read.wait()
        prepare.wait()
        encode.wait()
        return tally
    }

    /// The read stage (one thread) and the prepare stage (`--jobs` threads), as every batch
    /// runs them: each prepared job goes to `then`, and the last preparer to finish calls
    /// `done` once. `reading`: manifest jobs read ahead at most.
    func readAndPrepare(reader: ManifestReader, recorder: BatchRecorder, started: Date, reading: Int,
                        probe: (@Sendable (Stage) -> Void)?, then: @escaping @Sendable (BatchJob) -> Void,
                        done: @escaping @Sendable () -> Void) -> (read: WorkerThreads, prepare: WorkerThreads) {
        let workers = max(1, options.workers)
        // Lines go to the preparers `readChunk` at a time: one wake-up of the reader (and of a
        // preparer) a chunk, not a job (issue 71).
        let jobs = BoundedQueue<[ManifestJob]>(capacity: max(2, reading / Self.readChunk))
        let outputScope = reader.outputs.openScope()
        let prepareStage = PrepareStage(options: options, cache: cache, index: resumeIndex, recorder: recorder,
                                        started: started, outputs: reader.outputs, outputScope: outputScope)
        let times = self.times
        let read = WorkerThreads(count: 1, name: "glslice-read") { [options] _ in
            Self.read(reader, shard: options.shard, outputScope: outputScope, into: jobs, recorder: recorder)
        }
        let preparing = Locked(workers)
        let prepare = WorkerThreads(count: workers, name: "glslice-prep") { _ in
            while let chunk = jobs.pop() {
                for job in chunk {
                    probe?(.prepare)
                    let start = StageClock.now
                    let ready = prepareStage.prepare(job)
                    times.add(.prepare, StageClock.now - start, items: 1)
                    if let ready { then(ready) }
                }
            }
            if preparing.withLock({ $0 -= 1; return $0 == 0 }) { done() }
        }
        return (read, prepare)
    }

    /// The read stage: this shard's lines into `queue`; a bad line is recorded
    /// as a failed job and the rest go on.
    static func read(_ reader: ManifestReader, shard: Shard, outputScope: FileScope?, into queue: BoundedQueue<[ManifestJob]>,
                             recorder: BatchRecorder) {
        var chunk: [ManifestJob] = []
        defer { if !chunk.isEmpty { queue.push(chunk) }; queue.close() }
        // Two jobs writing one file would race; the later line is refused.
        var duplicates = DuplicateOutputs(manifest: reader, shard: shard, outputScope: outputScope)
        while let (number, text) = reader.nextLine() {
            guard shard.owns(number - 1) else { continue }
            do {
                let job = try reader.job(line: number, text: text)
                if let earlier = duplicates.earlierLine(for: job, outputScope: outputScope) {
                    throw UsageErrors.sharedOutput(job.output, earlierLine: earlier)
                }
                chunk.append(job)
                // A chunk goes when full, or at once while the preparers wait (a manifest piped in slowly).
                if chunk.count == readChunk || queue.isEmpty {
                    guard queue.push(chunk) else { chunk = []; break }
                    chunk = []
                }
            } catch {
                // The results file says the line in its own field; the message stands alone.
                recorder.record(JobResult(line: number, output: nil, status: .error,
                                          error: GlsliceError.from(error).text(naming: .manifestKey, withManifestLine: false),
                                          milliseconds: 0, bytes: 0))
            }
        }
    }

    /// Manifest jobs a preparer takes at once: 8 cut a small-output farm's context switches to
    /// about one in eight jobs, and a chunk of the largest outputs is still seconds of work.
    static let readChunk = 8
}
