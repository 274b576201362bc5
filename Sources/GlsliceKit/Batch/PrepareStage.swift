import Foundation

/// The prepare stage, on every core: resume check, source (through the
/// shared cache), plan, digest and the output's folder. What it cannot
/// prepare it records as skipped or failed; the rest goes on to draw.
final class PrepareStage: Sendable {
    private let options: BatchOptions
    private let cache: SourceCache
    private let index: ResumeIndex
    private let recorder: BatchRecorder
    private let started: Date
    /// The output folder, open, when outputs must stay inside it.
    private let outputScope: FileScope?
    /// Where outputs go: their folders are made and swept there.
    private let outputs: OutputFolder

    init(options: BatchOptions, cache: SourceCache, index: ResumeIndex, recorder: BatchRecorder, started: Date,
         outputs: OutputFolder, outputScope: FileScope?) {
        self.index = index
        self.options = options
        self.outputs = outputs
        self.outputScope = outputScope
        self.cache = cache
        self.recorder = recorder
        self.started = started
    }

    /// The job ready to draw, or nil when it is finished already (skipped, or failed and recorded).
    func prepare(_ job: ManifestJob) -> BatchJob? {
        let started = Date()
        outputs.sweepOnce(for: job.output, olderThan: self.started)
        do {
            // The index's line for it, else (an output from before the index, or with --digest-chunk) its own record.
            let finished = options.resume ? index.finished(path: job.output) ?? FinishedOutput.read(path: job.output) : nil
            // A plain PNG is checked without decoding it: its hash, and the output size its name and request give.
            if let finished, !ImageSet.isImageSet(path: job.input),
               finished.digest == JobDigest.make(sourceKey: try plainKey(job.input), request: job.request),
               finished.size == (try? PlanBuilder.outputSize(job.request, sourceScale: job.request.resolvedSourceScale(path: job.input))) {
                skip(job, started: started)
                return nil
            }
            // Anything else (an image set, a nine-patch, which may be compiled whatever its name) is
            // resolved and planned, which a job that is not done needs anyway.
            var prepared = try PreparedJob(request: job.request, source: resolve(job),
                                           limits: options.limits)
            prepared.prepareDigest() // for the resume check here, and the resume index
            if let finished, finished == FinishedOutput(size: prepared.size, digest: prepared.digest) {
                skip(job, started: started)
                return nil
            }
            let target = try job.target(outputScope: outputScope)
            try outputs.ensureFolder(for: job.output, target: target)
            var ready = prepared
            ready.prepareAhead()
            return BatchJob(manifest: job, prepared: ready, started: started, target: target)
        } catch {
            recorder.fail(job, error, started: started)
            return nil
        }
    }

    /// Records `job` as skipped. A skipped .9.png still reports its bounds, for
    /// builds that read only the latest results.
    private func skip(_ job: ManifestJob, started: Date) {
        let bounds = NinePatch.isNinePatch(path: job.input) ? try? resolve(job).source.hints.ninePatch : nil
        recorder.record(JobResult(line: job.line, output: job.output, status: .skipped, error: nil,
                                  milliseconds: Date().timeIntervalSince(started) * 1000, bytes: 0, ninePatch: bounds))
    }

    private func resolve(_ job: ManifestJob) throws -> ResolvedSource {
        try cache.resolve(input: job.input, outputScale: job.request.outputScale)
    }

    private func plainKey(_ input: String) throws -> SourceKey {
        SourceKey(contentHash: try cache.contentHash(of: input), recipe: .plain)
    }
}
