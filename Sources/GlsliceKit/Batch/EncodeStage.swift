/// The encode stage, on every core: each output's rows, wherever they were
/// drawn, through the one encode step into its file.
struct EncodeStage: Sendable {
    let durable: Bool
    /// Whether each output also records its job digest inside (`--digest-chunk`).
    let digestChunk: Bool
    /// Where each output named is recorded for `--resume`.
    let index: ResumeIndex
    let recorder: BatchRecorder
    let times: StageTimes

    /// Encodes `work` and records its result. `claim` (the hybrid's race) is asked
    /// once, just before the file is named or its error recorded: false means the
    /// other copy of this output finished first, so this one names nothing and records nothing.
    func encode(_ work: EncodeWork, claim: (() -> Bool)? = nil) {
        let job = work.job
        final class Decision { var won: Bool? }
        let decision = Decision()
        let mayName: (() -> Bool)? = claim.map { claim in {
            if decision.won == nil { decision.won = claim() }
            return decision.won ?? false
        } }
        do {
            let encoded = try Engine.encode(job.prepared, drawing: work.drawing, to: job.target.durable(durable),
                                            recordDigest: digestChunk, times: times, mayName: mayName,
                                            willName: { [index] bytes, modified, folder in
                                                // Before the name: a named output always has its line.
                                                index.record(path: job.manifest.output, in: folder, digest: job.prepared.digest,
                                                             size: job.prepared.size, bytes: bytes, modified: modified)
                                            })
            guard mayName?() ?? true else { return }
            let start = StageClock.now
            recorder.succeed(job, bytes: encoded.byteCount)
            times.add(.write, StageClock.now - start)
        } catch {
            guard mayName?() ?? true else { return }
            recorder.fail(job.manifest, error, started: job.started)
        }
    }
}
