import Foundation

extension BatchRunner {
    /// A job's fixed cost, in pixels, for sizing the GPU's calls: opening, planning
    /// and naming a small output weigh about as much as this many pixels.
    static let jobCostPixels = 16_384

    /// The hybrid (issue 68): the same read and prepare stages, then one
    /// `HybridScheduler` that the CPU workers and the GPU's draw stage both take
    /// from. A worker draws and encodes a job whole, or encodes what the GPU drew,
    /// or takes back what the GPU has not dispatched, or, at the end, runs a
    /// backup copy of a job the GPU holds; the first copy to finish names the
    /// file and records the line.
    func runHybrid(reader: ManifestReader, recorder: BatchRecorder, drawStage: DrawStage, started: Date,
                   probe: (@Sendable (Stage) -> Void)?) -> SideTally {
        let workers = max(1, options.workers)
        let encodeStage = EncodeStage(durable: options.durable, digestChunk: options.digestChunk, index: resumeIndex, recorder: recorder, times: times)
        let scheduler = DrawStage.Scheduler(cpuWorkers: workers, capacity: 4096, gpuGuess: drawStage.speedGuess,
                                            softwareGPU: drawStage.software,
                                            cost: { Double($0.prepared.size.pixelCount + Self.jobCostPixels) },
                                            pixels: { $0.prepared.size.pixelCount })
        let limits = drawStage.limits, rule = drawStage.rule
        let (read, prepare) = readAndPrepare(reader: reader, recorder: recorder, started: started, reading: 1024,
                                             probe: probe, then: { ready in
            let cpuOnly = GPUFinishRule.cpuOnly(ready.prepared, limits: limits, rule: rule)
            scheduler.submit(ready, cpuOnly: cpuOnly)
        }, done: { scheduler.close() })
        let encode = WorkerThreads(count: workers, name: "glslice-enc") { _ in
            while let work = scheduler.nextForCPU() {
                probe?(.encode)
                let start = ContinuousClock.now
                let drawing: Drawing = if case .rest(_, _, let drawn) = work { drawn } else { .here }
                encodeStage.encode(EncodeWork(job: work.item, drawing: drawing)) { scheduler.cpuClaim(work) }
                scheduler.cpuRan(work, seconds: (ContinuousClock.now - start).inSeconds)
            }
        }
        do {
            try drawStage.runHybrid(scheduler)
        } catch {
            // No atlas could be made: the CPU workers draw everything, what the GPU held included.
        }
        scheduler.gpuEnded()
        read.wait()
        prepare.wait()
        encode.wait()
        return SideTally(workers: workers, scheduler: scheduler)
    }
}
