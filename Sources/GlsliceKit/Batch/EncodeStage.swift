/// The encode stage, on every core: each output's rows, wherever they were
/// drawn, through the one encode step into its file.
struct EncodeStage: Sendable {
    let durable: Bool
    let recorder: BatchRecorder
    let times: StageTimes

    func encode(_ work: EncodeWork) {
        let job = work.job
        do {
            let encoded = try Engine.encode(job.prepared, drawing: work.drawing, to: job.target.durable(durable),
                                                recordDigest: true, times: times)
            let start = StageClock.now
            recorder.succeed(job, bytes: encoded.byteCount)
            times.add(.write, StageClock.now - start)
        } catch {
            recorder.fail(job.manifest, error, started: job.started)
        }
    }
}
