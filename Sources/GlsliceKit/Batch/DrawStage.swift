/// The batch's draw stage, on the thread that opened the GPU (it makes GL
/// calls and nothing else): `GPUDrawLoop` handing each output to the encode
/// stage as a strip of an atlas or a strip stream, never a copy, and
/// recording the jobs it cannot draw. With a pixel-pack ring (a real GPU)
/// the read back overlaps the next draw.
struct DrawStage {
    /// What it can draw, known before its first job: a job beyond it never reaches it.
    var limits: GPUContext.GLLimits?
    /// Draws what the input brings until it is closed and drained, pushing each output to the encode stage.
    var run: (_ input: BoundedQueue<BatchJob>, _ output: BoundedQueue<EncodeWork>) throws -> Void

    static func gpu(_ session: GPUSession, settings: GPUSettings, budget: MemoryBudget, recorder: BatchRecorder,
                    times: StageTimes, strips: Strips = Strips()) -> DrawStage {
        DrawStage(limits: session.context.limits) { input, output in try WorkerThreads.named("glslice-gpu") {
            let ring = try (settings.pixelPackRing ?? !session.context.isSoftware) ? PixelPackRing(count: 8, times: times) : nil
            var loop = GPUDrawLoop<BatchJob>(gpu: session, budget: budget, times: times, ring: ring)
            loop.strips = strips
            // Every GL call this thread makes while it runs, and its CPU time (issue 52).
            let glAtStart = GLTally.here, cpuAtStart = StageClock.threadCPU
            defer { times.addGLThread(GLTally.here - glAtStart, cpu: StageClock.threadCPU - cpuAtStart) }
            try loop.run(input, job: \.prepared) { job, drawn in
                switch drawn {
                case .success(let drawing): output.push(EncodeWork(job: job, drawing: drawing))
                case .failure(let error): recorder.fail(job.manifest, error, started: job.started)
                }
            }
        } }
    }
}
