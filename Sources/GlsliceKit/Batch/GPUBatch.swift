import Foundation

/// The GPU side of a batch. The calling thread, which owns the GL context,
/// readies jobs, packs the small ones into atlases and draws them; encoder
/// threads stream each output's rows out of its atlas into a `PNGWriter`.
/// Outputs too large for an atlas go through the band renderer, as `render` does.
struct GPUBatch {
    let runner: BatchRunner
    let gpu: GPURenderer
    let encoders: Int

    func run(feeder: Thread, queue: BoundedQueue<ManifestJob>) throws {
        let outputs = BoundedQueue<AtlasOutput>(capacity: encoders * 4)
        let group = startEncoders(reading: outputs)
        feeder.start()
        defer {
            queue.close()
            outputs.close()
            group.wait()
        }
        let setting = ProcessInfo.processInfo.environment["GLSLICE_PBO"].map { $0 == "1" }
        let ring = setting ?? runner.options.pixelPackRing ?? !gpu.context.isSoftware
        let atlas = try AtlasRenderer<ReadyJob>(renderer: gpu, pixelPackRing: ring) { [runner] placements, pixels in
            switch pixels {
            case .success(let pixels):
                for p in placements { outputs.push(AtlasOutput(job: p.item, atlas: pixels, x: p.x, y: p.y)) }
            case .failure(let error):
                for p in placements { runner.fail(p.item.job, error, started: p.item.started) }
            }
        }
        while true {
            let jobs = queue.popBatch(limit: 256)
            if jobs.isEmpty { break }
            // Tallest first packs shelves tighter.
            let ready = jobs.compactMap { runner.ready($0) }.sorted { $0.plan.size.height > $1.plan.size.height }
            for job in ready {
                guard atlas.fits(job.plan.size) else {
                    renderAlone(job)
                    continue
                }
                do {
                    try atlas.add(job, size: job.plan.size) {
                        try gpu.upload(job.plan, source: job.source, sourceKey: job.sourceKey)
                    }
                } catch {
                    runner.fail(job.job, error, started: job.started)
                }
            }
            atlas.flush()
            gpu.trimTextureCache()
        }
        atlas.finish()
    }

    /// `encoders` threads that encode atlas outputs until `outputs` closes.
    private func startEncoders(reading outputs: BoundedQueue<AtlasOutput>) -> DispatchGroup {
        let group = DispatchGroup()
        for _ in 0..<encoders {
            group.enter()
            let thread = Thread { [runner] in
                while let output = outputs.pop() { runner.encode(output) }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        return group
    }

    /// A large output: band by band straight into its encoder.
    private func renderAlone(_ job: ReadyJob) {
        do {
            let bytes = try Render.encode(gpu.upload(job.plan, source: job.source), plan: job.plan, source: job.source,
                                          to: .file(job.job.output), compression: job.job.request.compression,
                                          text: (JobDigest.textKey, job.digest))
            runner.succeed(job, bytes: bytes)
        } catch {
            runner.fail(job.job, error, started: job.started)
        }
    }
}

/// One output's rectangle in an atlas that has been read back.
struct AtlasOutput: Sendable {
    var job: ReadyJob
    var atlas: AtlasPixels
    var x: Int
    var y: Int
}

extension BatchRunner {
    /// Streams an atlas rectangle's rows into the output's PNG (RGB when every pixel is opaque).
    func encode(_ output: AtlasOutput) {
        let job = output.job, size = job.plan.size, atlas = output.atlas
        do {
            let writer = try PNGWriter(target: .file(job.job.output, durable: options.durable), size: size,
                                       opaque: atlas.isOpaque(x: output.x, y: output.y, size: size),
                                       compression: job.job.request.compression, text: (JobDigest.textKey, job.digest))
            try atlas.bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                try writer.write(premultipliedRows: base + (output.y * atlas.width + output.x) * 4, count: size.height,
                                 rowStride: atlas.width * 4)
            }
            succeed(job, bytes: try writer.finish())
        } catch {
            fail(job.job, error, started: job.started)
        }
    }
}
