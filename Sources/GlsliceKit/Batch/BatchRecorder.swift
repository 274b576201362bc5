import Foundation

/// The record stage: counts each job's result, appends it to `--results`,
/// reports errors and progress. Every other stage ends in one of its calls.
final class BatchRecorder: Sendable {
    private let manifest: String
    private let resultsPath: String?
    private let onError: @Sendable (String) -> Void
    private let onProgress: (@Sendable (Int) -> Void)?
    private let state = Locked(State())

    private struct State {
        var summary = BatchSummary()
        var results: ResultsLog?
        /// Set once a results line could not be written (a full disk): said once, and the batch fails.
        var resultsFailed = false
    }

    init(manifest: String, results: ResultsLog?, resultsPath: String?, backend: String,
         onError: @escaping @Sendable (String) -> Void, onProgress: (@Sendable (Int) -> Void)?) {
        self.manifest = manifest
        self.resultsPath = resultsPath
        self.onError = onError
        self.onProgress = onProgress
        state.withLock {
            $0.results = results
            $0.summary.backend = backend
        }
    }

    /// The summary so far; closes the results file when `closing`.
    func summary(seconds: Double, closing: Bool) -> BatchSummary {
        state.withLock {
            $0.summary.seconds = seconds
            if closing { $0.results = nil }
            return $0.summary
        }
    }

    func fail(_ job: ManifestJob, _ error: any Error, started: Date) {
        // A manifest names options by their keys; the line is the result's own field.
        let words = GlsliceError.from(error).text(naming: .manifestKey, withManifestLine: false)
        record(JobResult(line: job.line, output: job.output, status: .error, error: words,
                         milliseconds: Date().timeIntervalSince(started) * 1000, bytes: 0))
    }

    func succeed(_ job: BatchJob, bytes: Int) {
        record(JobResult(line: job.manifest.line, output: job.output, status: .ok, error: nil,
                         milliseconds: Date().timeIntervalSince(job.started) * 1000, bytes: bytes,
                         ninePatch: job.ninePatch))
    }

    /// Counts a result, appends it to the results file, reports errors.
    func record(_ result: JobResult) {
        // Encoded only for a results file: JSONEncoder was 3% of a batch of small jobs.
        let line = resultsPath == nil ? nil : result.jsonLine
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
            onError("\(manifest):\(result.line): \(result.error ?? "failed")")
        }
        if let lostResults, let resultsPath {
            onError("\(resultsPath): cannot write the results file (\(lostResults)); the batch goes on without it")
        }
        onProgress?(done)
    }
}
