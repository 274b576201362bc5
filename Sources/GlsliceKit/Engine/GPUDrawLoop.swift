/// The one GPU draw loop, on the thread that owns the GL context: the batch's
/// draw stage and serve's shared GPU thread both run it, with one gathering
/// policy. After a first job it keeps gathering while jobs keep coming (each
/// within `gap` of the last, for at most `gather`), so a lone job waits at
/// most `gap` and a busy queue fills its atlases; small outputs are packed
/// into atlases (each source cell uploaded once, cached under its
/// `SourceKey`) and read back, through the pixel-pack ring when there is one
/// (the next atlas draws while this one crosses the bus); outputs too large
/// for an atlas are drawn strip by strip into a stream their encoder already
/// reads. Memory drawn but not yet encoded is bounded by `budget`.
struct GPUDrawLoop<Item: Sendable> {
    let gpu: GPUSession
    let budget: MemoryBudget
    let times: StageTimes
    /// nil: each atlas is read back before the next is drawn.
    let ring: PixelPackRing?
    var strips = Strips()
    var gather: Duration = .milliseconds(2)
    var gap: Duration = .microseconds(200)

    /// Draws what `queue` brings until it is closed and drained. `deliver` gets
    /// each item's pixels (rows, or a stream still being filled) or its error,
    /// on this thread: it must not wait long. Throws when no atlas can be made.
    func run(_ queue: BoundedQueue<Item>, job: @escaping (Item) -> PreparedJob,
             deliver: @escaping (Item, Result<Drawing, any Error>) -> Void) throws {
        try run(GPUFeed(next: { queue.popBatch(limit: 256, gathering: gather, gap: gap) }), job: job, deliver: deliver)
    }

    /// Draws the calls `feed` makes until it makes an empty one.
    func run(_ feed: GPUFeed<Item>, job: @escaping (Item) -> PreparedJob,
             deliver: @escaping (Item, Result<Drawing, any Error>) -> Void) throws {
        let atlas = try GPUAtlas<Item>(session: gpu, ring: ring, budget: budget, times: times) { placed, pixels in
            for p in placed {
                deliver(p.item, pixels.map { pixels in
                    .strip(Strip(buffer: pixels.buffer, offset: pixels.offset(x: p.x, y: p.y), rows: p.size.height,
                                    rowStride: pixels.width * 4))
                })
            }
        }
        // `fast` PNGs the session's compute encoder takes are encoded on the GPU, from the atlas or drawn whole.
        let gpu = self.gpu
        func encodesOnGPU(_ prepared: PreparedJob) -> Bool {
            gpu.encodes(prepared.request.format ?? .png, prepared.request.compression, size: prepared.size)
        }
        atlas.encoding = GPUAtlas.Encoding(request: { item in
            let prepared = job(item)
            return encodesOnGPU(prepared) ? (prepared.isOpaque, prepared.repeats) : nil
        }, deliver: { item, result in deliver(item, result.map { .encoded($0) }) })
        let clock = ContinuousClock()
        while true {
            let start = clock.now
            let items = feed.next()
            times.add(.drawWait, clock.now - start)
            if items.isEmpty { break }
            // Each job is claimed just before its GL work: the hybrid's CPU workers may have taken it back.
            let small = feed.dispatching(items.filter { atlas.fits(job($0).size) })
            let large = items.filter { !atlas.fits(job($0).size) }
            _ = atlas.place(small, size: { job($0).size }, upload: { item in
                let prepared = job(item)
                return try Backend.gpuDrawer(prepared.plan, source: prepared.source.image, key: prepared.source.key, taps: prepared.taps, on: gpu)
            }, failed: { item, error in deliver(item, .failure(error)) })
            atlas.flush()
            // Large outputs the GPU encodes go in groups whose pixels fit its buffer together; the rest stream.
            var encoded: [Item] = []
            for item in large {
                if encodesOnGPU(job(item)) {
                    encoded.append(item)
                } else if let decline = feed.decline {
                    decline(item) // the hybrid: a CPU worker draws it whole rather than wait on a stream
                } else {
                    stream(item, job, feed, deliver: deliver)
                }
            }
            let groups = encoded.grouped(within: SIMD2(gpu.wholeEncodingPixels, .max)) { item in
                SIMD2(job(item).size.width * job(item).size.height, 0)
            }
            for group in groups {
                let dispatched = feed.dispatching(group)
                if !dispatched.isEmpty { encodeOnGPU(dispatched, job, feed, deliver: deliver) }
            }
            ring?.poll()
            gpu.trimTextureCache()
            gpu.trimEncoder()
        }
        atlas.finish()
    }

    /// Encodes `items` on the GPU, in one call, by the one "GPU, else CPU" policy
    /// (`GPUSession.encodeElseCPU`): an output the GPU could not encode is drawn
    /// again and streamed to the CPU's encoder (the hybrid's CPU draws it whole).
    private func encodeOnGPU(_ items: [Item], _ job: (Item) -> PreparedJob, _ feed: GPUFeed<Item>,
                             deliver: (Item, Result<Drawing, any Error>) -> Void) {
        let outputs = items.map { job($0).encodingOnGPU(gpu, strips: strips) }
        for (item, result) in zip(items, gpu.encodeElseCPU(outputs, times: times)) {
            switch result {
            case .success(let data): deliver(item, .success(.encoded(data)))
            case .failure: handOff(item, job, feed, deliver: deliver) // drawn again and read back; an error there is its own
            }
        }
    }

    /// An item the GPU could not encode: the hybrid's CPU draws it whole; otherwise it is streamed.
    private func handOff(_ item: Item, _ job: (Item) -> PreparedJob, _ feed: GPUFeed<Item>,
                         deliver: (Item, Result<Drawing, any Error>) -> Void) {
        if let decline = feed.decline { decline(item) } else { stream(item, job, feed, deliver: deliver) }
    }

    /// Streams `item`: its encoder gets the stream at once and encodes while the strips come.
    private func stream(_ item: Item, _ job: (Item) -> PreparedJob, _ feed: GPUFeed<Item>,
                        deliver: (Item, Result<Drawing, any Error>) -> Void) {
        guard !feed.dispatching([item]).isEmpty else { return }
        let stream = StripStream(depth: (ring?.count ?? 2) + 2)
        deliver(item, .success(.stream(stream)))
        send(job(item), to: stream)
        gpu.trimTextureCache()
    }

    /// Uploads `job`'s cells and sends every strip to `stream`, which ends with
    /// the last strip, or with the error that stopped it. Strips are read back
    /// either into memory taken from `budget`, or through the pixel-pack ring,
    /// which lends them uncopied and reads one strip while the next draws.
    private func send(_ job: PreparedJob, to stream: StripStream) {
        let clock = ContinuousClock()
        do {
            var start = clock.now
            let drawer = try Backend.gpuDrawer(job.plan, source: job.source.image, key: job.source.key, taps: job.taps, on: gpu)
            times.add(.draw, clock.now - start, items: 1)
            let size = job.size, stride = size.width * 4
            // A strip, drawn and read back, within its share of the GPU budget.
            var strips = self.strips
            strips.stripBytes = min(strips.stripBytes, gpu.memory.stripBytes(readBackSlots: ring?.count ?? 0))
            try (0..<size.height).eachStrip(of: strips.rows(width: size.width, height: size.height, drawer: drawer)) { range, last in
                let count = range.count
                if let ring, drawer.drawsStripsWhole {
                    start = clock.now
                    try drawer.drawStrip(range)
                    times.add(.draw, clock.now - start)
                    try ring.read(width: size.width, height: count, session: gpu) { result in
                        switch result {
                        case .success(let buffer):
                            stream.send(Strip(buffer: buffer, offset: 0, rows: count, rowStride: stride))
                            if last { stream.finish() }
                        case .failure(let error):
                            stream.fail(error)
                        }
                    }
                } else {
                    start = clock.now
                    let buffer = PixelBuffer(byteCount: count * stride, budget: budget)
                    times.add(.drawWait, clock.now - start)
                    try drawer.drawRows(range, into: buffer.base, timing: times)
                    stream.send(Strip(buffer: buffer, offset: 0, rows: count, rowStride: stride))
                    if last { stream.finish() }
                }
            }
        } catch {
            stream.fail(error)
        }
    }
}
