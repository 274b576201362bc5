/// The batch's draw stage, on the thread that opened the GPU (it makes GL
/// calls and nothing else): `GPUDrawLoop` handing each output to the encode
/// stage as a strip of an atlas or a strip stream, never a copy, and
/// recording the jobs it cannot draw. With a pixel-pack ring (a real GPU)
/// the read back overlaps the next draw.
struct DrawStage {
    /// The hybrid's scheduler, drawing batch jobs and delivering where they were drawn.
    typealias Scheduler = HybridScheduler<BatchJob, Drawing>

    /// What it can draw, known before its first job: a job beyond it never reaches it.
    var limits: GPUContext.GLLimits?
    /// Draws what the input brings until it is closed and drained, pushing each output to the encode stage.
    var run: (_ input: BoundedQueue<BatchJob>, _ output: BoundedQueue<EncodeWork>) throws -> Void
    /// The hybrid: draws the calls the scheduler makes until it makes an empty one,
    /// handing back to the CPU what it cannot finish.
    var runHybrid: (_ scheduler: Scheduler) throws -> Void
    /// The hybrid: what the GPU finishes without a CPU worker waiting on it (`GPUFinishRule`,
    /// whose `cpuOnly` routes each job). nil: every job.
    var rule: GPUFinishRule?
    /// The GPU's seconds over one CPU core's, guessed from its encoder's self-check (nil: none).
    var speedGuess: Double?
    /// A software rasteriser (`HybridCallSizer.software`).
    var software = false

    static func gpu(_ session: GPUSession, settings: GPUSettings, budget: MemoryBudget, recorder: BatchRecorder,
                    times: StageTimes, strips: Strips = Strips()) -> DrawStage {
        /// Runs `body` with the loop on the GL thread, counting its GL calls and CPU time (issue 52).
        func onGLThread<Item>(_ body: @escaping (GPUDrawLoop<Item>) throws -> Void) throws {
            try WorkerThreads.named("glslice-gpu") {
                let ring = try (settings.pixelPackRing ?? !session.context.isSoftware) ? PixelPackRing(count: 8, times: times) : nil
                var loop = GPUDrawLoop<Item>(gpu: session, budget: budget, times: times, ring: ring)
                loop.strips = strips
                let glAtStart = GLTally.here, cpuAtStart = StageClock.threadCPU
                defer { times.addGLThread(GLTally.here - glAtStart, cpu: StageClock.threadCPU - cpuAtStart) }
                try body(loop)
            }
        }
        let rule = GPUFinishRule(readying: session)
        return DrawStage(limits: session.context.limits, run: { input, output in
            try onGLThread { (loop: GPUDrawLoop<BatchJob>) in
                try loop.run(input, job: \.prepared) { job, drawn in
                    switch drawn {
                    case .success(let drawing): output.push(EncodeWork(job: job, drawing: drawing))
                    case .failure(let error): recorder.fail(job.manifest, error, started: job.started)
                    }
                }
            }
        }, runHybrid: { scheduler in
            try onGLThread { (loop: GPUDrawLoop<Scheduler.Claim>) in try loop.run(hybrid: scheduler, job: \.prepared) }
        }, rule: rule, speedGuess: rule.speedGuess, software: rule.software)
    }
}
