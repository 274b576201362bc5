import Foundation
import Synchronization

/// Runs a manifest: reader → (source cache) → render workers → encoders, with
/// bounded queues between stages, atomic outputs, and digests for `--resume`.
///
/// `Sendable` for its worker threads: its settings are constants, the source
/// cache guards itself, and the tallies and the results file sit behind a mutex.
public final class BatchRunner: Sendable {
    let options: BatchOptions
    let cache: SourceCache
    let onError: @Sendable (String) -> Void
    let onProgress: (@Sendable (_ done: Int) -> Void)?
    private let state = Locked(RunState())

    /// What changes while a batch runs.
    private struct RunState {
        var summary = BatchSummary()
        var results: ResultsLog?
        /// Set once a results line could not be written (a full disk): said once, and the batch fails.
        var resultsFailed = false
        /// `cpu` or `gpu`: part of every digest, since the backends may differ by 1.
        var backendKind = "cpu"
        var madeFolders: Set<String> = []
        var sweptFolders: Set<String> = []
        var started = Date()
    }

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
    public static func countJobs(_ options: BatchOptions) throws -> Int {
        let reader = try ManifestReader(path: options.manifest)
        var count = 0
        while let (number, _) = reader.nextLine() {
            if options.shard.owns(number - 1) { count += 1 }
        }
        return count
    }

    public func run(warn: (String) -> Void = { _ in }) throws -> BatchSummary {
        let reader = try ManifestReader(path: options.manifest, outputFolder: options.outputFolder,
                                        allowOutside: options.allowOutsideOutputFolder)
        try createOutputFolder()
        try openResults()
        defer { state.withLock { $0.results = nil } }
        let backend = try Backend.make(options.backend, device: options.device, warn: warn)
        state.withLock {
            $0.backendKind = backend.gpu == nil ? "cpu" : "gpu"
            $0.summary.backend = backend.description
        }
        let start = Date()
        state.withLock { $0.started = start }
        // The GPU packs whole queues of small outputs into one atlas, so it reads further ahead.
        let queue = BoundedQueue<ManifestJob>(capacity: options.backend == .cpu ? max(4, options.workers * 4) : 512)
        let feeder = feed(from: reader, into: queue)
        if let gpu = backend.gpu {
            try GPUBatch(runner: self, gpu: gpu, encoders: max(1, options.workers)).run(feeder: feeder, queue: queue)
        } else {
            runOnCPU(feeder: feeder, queue: queue)
        }
        return state.withLock {
            $0.summary.seconds = Date().timeIntervalSince(start)
            return $0.summary
        }
    }

    private func createOutputFolder() throws {
        guard let folder = options.outputFolder else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw GlsliceError(.cannotWrite, file: folder, "cannot create the output folder")
        }
    }

    /// Opens `--results` for appending (truncated first unless resuming).
    private func openResults() throws {
        guard let results = options.results else { return }
        let log = try ResultsLog(path: results, append: options.resume, manifest: options.manifest)
        state.withLock { $0.results = log }
    }

    /// The thread that reads this shard's lines into `queue`; a bad line is
    /// recorded as a failed job and the rest go on.
    private func feed(from reader: ManifestReader, into queue: BoundedQueue<ManifestJob>) -> Thread {
        let shard = options.shard
        let feeder = Thread { [self] in
            // Two jobs writing one file would race; the later line is refused. Hashes
            // of the normalized paths keep this at 8 bytes a job over millions of jobs.
            var firstLineOf: [Int: Int] = [:]
            while let (number, text) = reader.nextLine() {
                guard shard.owns(number - 1) else { continue }
                do {
                    let job = try reader.job(line: number, text: text)
                    let key = job.output.hashValue
                    if let earlier = firstLineOf[key] {
                        throw GlsliceError(.usage, "output \(job.output) is also line \(earlier)'s output; each job needs its own")
                    }
                    firstLineOf[key] = number
                    guard queue.push(job) else { break }
                } catch let error as GlsliceError {
                    // The results file says the line in its own field; the message stands alone.
                    record(JobResult(line: number, output: nil, status: .error, error: error.message, milliseconds: 0, bytes: 0))
                } catch {
                    record(JobResult(line: number, output: nil, status: .error, error: "\(error)", milliseconds: 0, bytes: 0))
                }
            }
            queue.close()
        }
        feeder.stackSize = 1 << 20
        return feeder
    }

    /// `--jobs` workers, each preparing, rendering and encoding whole jobs.
    private func runOnCPU(feeder: Thread, queue: BoundedQueue<ManifestJob>) {
        let group = DispatchGroup()
        feeder.start()
        for _ in 0..<max(1, options.workers) {
            group.enter()
            let worker = Thread { [self] in
                while let job = queue.pop() { renderOnCPU(job) }
                group.leave()
            }
            worker.stackSize = 1 << 20
            worker.start()
        }
        group.wait()
    }

    private func renderOnCPU(_ job: ManifestJob) {
        guard let ready = ready(job) else { return }
        do {
            let bytes = try Render.encode(CPURenderer.PlanWithTaps(plan: ready.plan, source: ready.source),
                                          plan: ready.plan, source: ready.source, to: .file(job.output, durable: options.durable),
                                          compression: job.request.compression, text: (JobDigest.textKey, ready.digest))
            succeed(ready, bytes: bytes)
        } catch {
            fail(job, error, started: ready.started)
        }
    }

    /// The digest that an output of `job` records.
    func digest(_ job: ManifestJob, sourceKey: String) -> String {
        JobDigest.make(backend: state.withLock { $0.backendKind }, sourceKey: sourceKey, request: job.request)
    }

    /// With `--resume`: true when the output is a whole PNG (a killed writer or
    /// a full disk can leave an intact head and digest) that records this job's digest.
    func alreadyDone(_ job: ManifestJob) throws -> Bool {
        guard options.resume, let output = FileManager.default.contents(atPath: job.output),
              PNGDecoder.isWhole(output),
              let recorded = PNGDecoder.text(key: JobDigest.textKey, data: output) else { return false }
        // A plain PNG is hashed without decoding. A source with a recipe (an image set, a
        // nine-patch, which may be compiled whatever its name) is resolved; its sources are
        // cached, and a job that is not done needs them anyway.
        if !ImageSet.isImageSet(path: job.input), recorded == digest(job, sourceKey: try cache.contentHash(of: job.input)) {
            return true
        }
        return recorded == digest(job, sourceKey: try resolveSource(job).key)
    }

    /// The job's source through the cache, and the digest key for it.
    private func resolveSource(_ job: ManifestJob) throws -> (source: SourceImage, key: String) {
        try cache.resolve(input: job.input, outputScale: job.request.outputScale)
    }

    /// Resume check, source, plan, output folder. Returns nil when the job is
    /// already finished (skipped, or failed and reported).
    func ready(_ job: ManifestJob) -> ReadyJob? {
        let started = Date()
        let folder = OutputFile.split(job.output).folder
        sweepOnce(folder)
        do {
            if try alreadyDone(job) {
                // A skipped .9.png still reports its bounds, for builds that read only the latest results.
                let bounds = NinePatch.isNinePatch(path: job.input) ? try? resolveSource(job).source.hints.ninePatch : nil
                record(JobResult(line: job.line, output: job.output, status: .skipped, error: nil,
                                 milliseconds: Date().timeIntervalSince(started) * 1000, bytes: 0, ninePatch: bounds))
                return nil
            }
            let (source, key) = try resolveSource(job)
            let plan = try PlanBuilder.plan(job.request, source: source, limits: options.limits)
            try ensureFolder(folder, for: job.output)
            return ReadyJob(job: job, source: source.image, plan: plan, digest: digest(job, sourceKey: key),
                            started: started, sourceKey: key, ninePatch: source.hints.ninePatch)
        } catch {
            fail(job, error, started: started)
            return nil
        }
    }

    /// The first time a batch meets an output folder, it removes the hidden
    /// temporary files that an earlier, killed run left there.
    private func sweepOnce(_ folder: String) {
        let (first, start) = state.withLock { ($0.sweptFolders.insert(folder).inserted, $0.started) }
        if first { OutputFile.sweepStale(in: folder, olderThan: start) }
    }

    /// Creates the output's folder once per batch, not once per job.
    private func ensureFolder(_ folder: String, for output: String) throws {
        if state.withLock({ $0.madeFolders.contains(folder) }) { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw GlsliceError(.cannotWrite, file: output, "cannot create the folder \(folder)")
        }
        state.withLock { _ = $0.madeFolders.insert(folder) }
    }

    func fail(_ job: ManifestJob, _ error: any Error, started: Date) {
        record(JobResult(line: job.line, output: job.output, status: .error, error: "\(error)",
                         milliseconds: Date().timeIntervalSince(started) * 1000, bytes: 0))
    }

    func succeed(_ ready: ReadyJob, bytes: Int) {
        record(JobResult(line: ready.job.line, output: ready.job.output, status: .ok, error: nil,
                         milliseconds: Date().timeIntervalSince(ready.started) * 1000, bytes: bytes,
                         ninePatch: ready.ninePatch))
    }

    /// Counts a result, appends it to the results file, reports errors.
    func record(_ result: JobResult) {
        // Encoded only for a results file: JSONEncoder was 3% of a batch of small jobs.
        let line = options.results == nil ? nil : result.jsonLine
        let (done, lostResults): (Int, String?) = state.withLock {
            $0.summary.count(result)
            guard let line, let log = $0.results, !$0.resultsFailed, let why = log.append(line) else {
                return ($0.summary.total, nil)
            }
            $0.resultsFailed = true
            $0.summary.resultsLost = true
            return ($0.summary.total, why)
        }
        if result.status == .error {
            onError("\(options.manifest):\(result.line): \(result.error ?? "failed")")
        }
        if let lostResults, let path = options.results {
            onError("\(path): cannot write the results file (\(lostResults)); the batch goes on without it")
        }
        onProgress?(done)
    }
}

/// A job ready to draw: its source, plan and digest.
struct ReadyJob: Sendable {
    var job: ManifestJob
    var source: PremultipliedImage
    var plan: RenderPlan
    var digest: String
    var started: Date
    /// Identifies the source's pixels (its content hash), for GPU texture sharing.
    var sourceKey: String
    var ninePatch: NinePatchBounds?
}
