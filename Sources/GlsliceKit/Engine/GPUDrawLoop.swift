/// The one GPU draw loop, on the thread that owns the GL context: the batch's
/// draw stage and serve's shared GPU thread both run it, with one gathering
/// policy. After a first job it keeps gathering while jobs keep coming (each
/// within `gap` of the last, for at most `gather`), so a lone job waits at
/// most `gap` and a busy queue fills its atlases; small outputs are packed
/// into atlases (each source cell uploaded once, cached under its
/// `SourceKey`) and read back, through the pixel-pack ring when there is one
/// (the next atlas draws while this one crosses the bus); outputs too large
/// for an atlas are drawn band by band into a stream their encoder already
/// reads. Memory drawn but not yet encoded is bounded by `budget`.
struct GPUDrawLoop<Item: Sendable> {
    let gpu: GPURenderer
    let budget: MemoryBudget
    let times: StageTimes
    /// nil: each atlas is read back before the next is drawn.
    let ring: PixelPackRing?
    var banding = Banding()
    var gather: Duration = .milliseconds(2)
    var gap: Duration = .microseconds(200)

    /// Draws what `queue` brings until it is closed and drained. `deliver` gets
    /// each item's pixels (rows, or a stream still being filled) or its error,
    /// on this thread: it must not wait long. Throws when no atlas can be made.
    func run(_ queue: BoundedQueue<Item>, job: (Item) -> PreparedJob,
             deliver: @escaping (Item, Result<Drawing, any Error>) -> Void) throws {
        let atlas = try AtlasRenderer<Item>(renderer: gpu, ring: ring, budget: budget, times: times) { placed, pixels in
            for p in placed {
                deliver(p.item, pixels.map { pixels in
                    .rows(DrawnRows(buffer: pixels.buffer, offset: pixels.offset(x: p.x, y: p.y), rows: p.size.height,
                                    rowStride: pixels.width * 4))
                })
            }
        }
        let clock = ContinuousClock()
        while true {
            let start = clock.now
            let items = queue.popBatch(limit: 256, gathering: gather, gap: gap)
            times.add(.drawWait, clock.now - start)
            if items.isEmpty { break }
            let large = atlas.place(items, size: { job($0).size }, upload: { item in
                let prepared = job(item)
                return try gpu.upload(prepared.plan, source: prepared.source.image, sourceKey: prepared.source.key)
            }, failed: { item, error in deliver(item, .failure(error)) })
            atlas.flush()
            for item in large {
                // Its encoder gets the stream at once and encodes while the bands come.
                let stream = BandStream(depth: (ring?.count ?? 2) + 2)
                deliver(item, .success(.stream(stream)))
                GPUBandWriter(gpu: gpu, budget: budget, times: times, banding: banding).send(job(item), to: stream, ring: ring)
                gpu.trimTextureCache()
            }
            ring?.poll()
            gpu.trimTextureCache()
        }
        atlas.finish()
    }
}
