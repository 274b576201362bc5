import Foundation

/// The draw stage on a GPU: one thread, the one that owns the GL context,
/// which makes GL calls and nothing else. Small outputs are packed into
/// atlases (each source cell uploaded once and cached under its `SourceKey`),
/// read back through the pixel-pack ring while the next atlas draws, and
/// handed to the encoders as rectangles of the atlas, not copies. Outputs too
/// large for an atlas are drawn band by band and streamed to an encoder.
/// Memory drawn but not yet encoded is bounded by `budget`.
struct GPUDrawer: BatchDrawer {
    let gpu: GPURenderer
    let settings: GPUSettings
    let budget: MemoryBudget
    let recorder: BatchRecorder
    let times: StageTimes
    var banding = Banding()

    /// Draws what `input` brings until it is closed and drained; pushes each output to `output`.
    func run(_ input: BoundedQueue<BatchJob>, output: BoundedQueue<EncodeWork>) throws {
        let recorder = self.recorder
        let ring = try (settings.pixelPackRing ?? !gpu.context.isSoftware) ? PixelPackRing(count: 8, times: times) : nil
        let atlas = try AtlasRenderer<BatchJob>(renderer: gpu, ring: ring, budget: budget, times: times) { placements, pixels in
            switch pixels {
            case .success(let pixels):
                let stride = pixels.width * 4
                for p in placements {
                    let rows = DrawnRows(buffer: pixels.buffer, offset: pixels.offset(x: p.x, y: p.y),
                                         rows: p.size.height, rowStride: stride)
                    output.push(EncodeWork(job: p.item, drawing: .drawn(rows)))
                }
            case .failure(let error):
                for p in placements { recorder.fail(p.item.manifest, error, started: p.item.started) }
            }
        }
        let clock = ContinuousClock()
        while true {
            let start = clock.now
            let jobs = input.popBatch(limit: 256)
            times.add(.drawWait, clock.now - start)
            if jobs.isEmpty { break }
            let large = atlas.place(jobs, size: \.prepared.size, upload: { job in
                try gpu.upload(job.prepared.plan, source: job.prepared.source.image, sourceKey: job.prepared.source.key)
            }, failed: { job, error in recorder.fail(job.manifest, error, started: job.started) })
            atlas.flush()
            for job in large { stream(job, into: output, ring: ring) }
            ring?.poll()
            gpu.trimTextureCache()
        }
        atlas.finish()
    }

    /// A large output: band by band into a stream that an encoder is already reading.
    private func stream(_ job: BatchJob, into output: BoundedQueue<EncodeWork>, ring: PixelPackRing?) {
        let stream = BandStream(depth: (ring?.count ?? 2) + 2)
        output.push(EncodeWork(job: job, drawing: .streaming(stream)))
        GPUBandWriter(gpu: gpu, budget: budget, times: times, banding: banding).send(job.prepared, to: stream, ring: ring)
    }
}
