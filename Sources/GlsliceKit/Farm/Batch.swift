import Foundation

/// What `glslice batch` is asked to do.
public struct BatchOptions: Sendable {
    public var manifest: String
    /// Relative outputs resolve here (created if missing); default the manifest's folder.
    public var outputFolder: String?
    public var backend: BackendChoice = .auto
    public var device: Int?
    /// Render workers (CPU) or encoder threads (GPU).
    public var workers: Int = ProcessInfo.processInfo.activeProcessorCount
    public var results: String?
    public var resume = false
    public var shard = Shard.all
    public var cacheBytes = 256 << 20
    /// GPU readback through a ring of pixel-pack buffers: nil chooses it on real
    /// GPUs (not llvmpipe); `GLSLICE_PBO=0|1` in the environment overrides that.
    public var pixelPackRing: Bool?
    public var limits = Limits()

    public init(manifest: String) { self.manifest = manifest }
}

/// How a batch ended.
public struct BatchSummary: Sendable {
    public var ok = 0
    public var skipped = 0
    public var failed = 0
    public var bytes = 0
    public var seconds = 0.0
    public var backend = ""
    public var total: Int { ok + skipped + failed }
    public var succeeded: Bool { failed == 0 }

    public var line: String {
        let rate = seconds > 0 ? Double(ok) / seconds : 0
        return String(format: "batch: %d rendered, %d skipped, %d failed in %.2f s (%.0f renders/s, %@ of PNG) on %@",
                      ok, skipped, failed, seconds, rate, formatBytes(bytes), backend)
    }
}

func formatBytes(_ bytes: Int) -> String {
    bytes >= 1 << 20 ? String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
        : String(format: "%.1f KiB", Double(bytes) / 1024)
}

/// One job's outcome, as a line of the results file.
public struct JobResult: Sendable {
    public enum Status: String, Sendable { case ok, skipped, error }
    public var line: Int
    public var output: String?
    public var status: Status
    public var error: String?
    public var milliseconds: Double
    public var bytes: Int

    var json: String {
        func quote(_ s: String?) -> String {
            guard let s else { return "null" }
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
                }
            }
            return out + "\""
        }
        return "{\"line\":\(line),\"output\":\(quote(output)),\"status\":\"\(status.rawValue)\",\"error\":\(quote(error)),"
            + "\"ms\":\(String(format: "%.3f", milliseconds)),\"bytes\":\(bytes)}"
    }
}

/// Runs a manifest: reader → (source cache) → render workers → encoders, with
/// bounded queues between stages, atomic outputs, and digests for `--resume`.
public final class BatchRunner: @unchecked Sendable {
    /// The tEXt key under which each output records its job digest.
    public static let digestKey = "glslice-job"
    /// Part of every digest: bump when the same job would render different bytes.
    public static let rendererVersion = "glslice-render/1"

    let options: BatchOptions
    let cache: SourceCache
    let onError: @Sendable (String) -> Void
    let onProgress: (@Sendable (_ done: Int) -> Void)?
    private let lock = NSLock()
    private var summary = BatchSummary()
    private var resultsHandle: FileHandle?
    private var backendKind = "cpu"

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

    /// Counts the non-blank lines of this shard (for a progress bar's total).
    public static func countJobs(_ options: BatchOptions) throws -> Int {
        let reader = try ManifestReader(path: options.manifest)
        var count = 0
        while let (number, _) = reader.nextLine() {
            if options.shard.owns(number - 1) { count += 1 }
        }
        return count
    }

    public func run(warn: (String) -> Void = { _ in }) throws -> BatchSummary {
        let reader = try ManifestReader(path: options.manifest, outputFolder: options.outputFolder, limits: options.limits)
        if let folder = options.outputFolder {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw GlsliceError(.cannotWrite, file: folder, "cannot create the output folder")
            }
        }
        if let results = options.results {
            if !options.resume || !FileManager.default.fileExists(atPath: results) {
                guard FileManager.default.createFile(atPath: results, contents: nil) else {
                    throw GlsliceError(.cannotWrite, file: results, "cannot create the results file")
                }
            }
            guard let handle = FileHandle(forWritingAtPath: results) else {
                throw GlsliceError(.cannotWrite, file: results, "cannot open the results file")
            }
            handle.seekToEndOfFile()
            resultsHandle = handle
        }
        defer { try? resultsHandle?.close() }
        let backend = try Backend.make(options.backend, device: options.device, warn: warn)
        backendKind = backend.gpu == nil ? "cpu" : "gpu"
        summary.backend = backend.description
        let start = Date()
        // The GPU packs whole queues of small outputs into one atlas, so it reads further ahead.
        let queue = BoundedQueue<ManifestJob>(capacity: options.backend == .cpu ? max(4, options.workers * 4) : 512)
        let feeder = Thread { [self] in
            while let (number, text) = reader.nextLine() {
                guard options.shard.owns(number - 1) else { continue }
                do {
                    queue.push(try reader.job(line: number, text: text))
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
        if let gpu = backend.gpu {
            try GPUBatch(runner: self, gpu: gpu, encoders: max(1, options.workers)).run(feeder: feeder, queue: queue)
        } else {
            let group = DispatchGroup()
            feeder.start()
            for _ in 0..<max(1, options.workers) {
                group.enter()
                let worker = Thread { [self] in
                    while let job = queue.pop() { process(job, backend: backend) }
                    group.leave()
                }
                worker.stackSize = 1 << 20
                worker.start()
            }
            group.wait()
        }
        return lock.withLock {
            summary.seconds = Date().timeIntervalSince(start)
            return summary
        }
    }

    /// The digest that an output of `job` records, from its input's bytes,
    /// its options and the renderer.
    func digest(_ job: ManifestJob, contentHash: String) -> String {
        var sha = SHA256()
        sha.update("\(Self.rendererVersion)\n\(backendKind)\n\(contentHash)\n\(job.options.canonical)\n")
        return String(SHA256.hex(sha.finalize()).prefix(32))
    }

    /// With `--resume`: true when the output exists and records this job's digest.
    func alreadyDone(_ job: ManifestJob) throws -> Bool {
        guard options.resume, FileManager.default.fileExists(atPath: job.output),
              let recorded = PNGDecoder.text(key: Self.digestKey, path: job.output) else { return false }
        return recorded == digest(job, contentHash: try resumeKey(job))
    }

    /// What `prepare` would put in the digest for `job`'s source, without decoding
    /// a plain PNG (an image set is resolved, which is cheap: its sources are cached).
    private func resumeKey(_ job: ManifestJob) throws -> String {
        guard ImageSet.isImageSet(path: job.input) else { return try cache.contentHash(of: job.input) }
        return try resolveSource(job).key
    }

    /// The job's source through the cache, and the digest key for it: the file's
    /// SHA-256, plus an image set's recipe when there is one.
    private func resolveSource(_ job: ManifestJob) throws -> (resolved: SourceResolver.Resolved, key: String) {
        var contentHash = ""
        let resolved = try SourceResolver.resolve(path: job.input, options: job.options) { file in
            let entry = try cache.source(at: file)
            contentHash = entry.contentHash
            return entry.source
        }
        return (resolved, resolved.recipe.isEmpty ? contentHash : "\(contentHash):\(resolved.recipe)")
    }

    /// A job ready to draw: its source, plan and digest.
    struct Prepared {
        var job: ManifestJob
        var source: PremultipliedImage
        var plan: RenderPlan
        var digest: String
        var started: Date
        /// Identifies the source's pixels (its content hash), for GPU texture sharing.
        var sourceKey: String
    }

    /// Resume check, source, plan. Returns nil when the job is finished (skipped or failed).
    func prepare(_ job: ManifestJob) -> Prepared? {
        let started = Date()
        do {
            if try alreadyDone(job) {
                record(JobResult(line: job.line, output: job.output, status: .skipped, error: nil,
                                 milliseconds: Date().timeIntervalSince(started) * 1000, bytes: 0))
                return nil
            }
            let (resolved, key) = try resolveSource(job)
            let plan = try resolved.options.plan(source: resolved.source, path: resolved.file)
            try ensureFolder(of: job.output)
            return Prepared(job: job, source: resolved.source.image, plan: plan, digest: digest(job, contentHash: key),
                            started: started, sourceKey: key)
        } catch {
            fail(job, error, started: started)
            return nil
        }
    }

    private var madeFolders: Set<String> = []

    /// Creates the output's folder once per batch, not once per job.
    private func ensureFolder(of output: String) throws {
        let folder = (output as NSString).deletingLastPathComponent
        if lock.withLock({ madeFolders.contains(folder) }) { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw GlsliceError(.cannotWrite, file: output, "cannot create the folder \(folder)")
        }
        lock.withLock { _ = madeFolders.insert(folder) }
    }

    func fail(_ job: ManifestJob, _ error: Error, started: Date) {
        record(JobResult(line: job.line, output: job.output, status: .error, error: "\(error)",
                         milliseconds: Date().timeIntervalSince(started) * 1000, bytes: 0))
    }

    func succeed(_ prepared: Prepared, bytes: Int) {
        record(JobResult(line: prepared.job.line, output: prepared.job.output, status: .ok, error: nil,
                         milliseconds: Date().timeIntervalSince(prepared.started) * 1000, bytes: bytes))
    }

    /// CPU path: prepare, render band by band into the encoder.
    private func process(_ job: ManifestJob, backend: Backend) {
        guard let prepared = prepare(job) else { return }
        do {
            let bytes = try Render.encode(plan: prepared.plan, source: prepared.source, to: .file(job.output),
                                          compression: job.options.compression, backend: backend,
                                          text: (Self.digestKey, prepared.digest))
            succeed(prepared, bytes: bytes)
        } catch {
            fail(job, error, started: prepared.started)
        }
    }

    /// Counts a result, appends it to the results file, reports errors.
    func record(_ result: JobResult) {
        let done: Int = lock.withLock {
            switch result.status {
            case .ok: summary.ok += 1
            case .skipped: summary.skipped += 1
            case .error: summary.failed += 1
            }
            summary.bytes += result.bytes
            if let handle = resultsHandle { handle.write(Data((result.json + "\n").utf8)) }
            return summary.total
        }
        if result.status == .error {
            let message = result.error ?? "failed"
            onError("\(options.manifest):\(result.line): \(message)")
        }
        onProgress?(done)
    }
}
