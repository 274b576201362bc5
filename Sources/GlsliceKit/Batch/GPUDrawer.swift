import Foundation

/// The batch's draw stage on a GPU: `GPUDrawLoop` on the thread that opened
/// the backend (one thread, which makes GL calls and nothing else), handing
/// each output to the encoders as a rectangle of an atlas or a band stream,
/// never a copy. With a pixel-pack ring (a real GPU) the read back overlaps
/// the next draw.
struct GPUDrawer: BatchDrawer {
    let gpu: GPURenderer
    let settings: GPUSettings
    let budget: MemoryBudget
    let recorder: BatchRecorder
    let times: StageTimes
    var banding = Banding()

    var limits: GPUContext.GLLimits? { gpu.context.limits }

    /// Draws what `input` brings until it is closed and drained; pushes each output to `output`.
    func run(_ input: BoundedQueue<BatchJob>, output: BoundedQueue<EncodeWork>) throws {
        let recorder = self.recorder
        let ring = try (settings.pixelPackRing ?? !gpu.context.isSoftware) ? PixelPackRing(count: 8, times: times) : nil
        var loop = GPUDrawLoop<BatchJob>(gpu: gpu, budget: budget, times: times, ring: ring)
        loop.banding = banding
        try loop.run(input, job: \.prepared) { job, drawn in
            switch drawn {
            case .success(let drawing): output.push(EncodeWork(job: job, drawing: drawing))
            case .failure(let error): recorder.fail(job.manifest, error, started: job.started)
            }
        }
    }
}
