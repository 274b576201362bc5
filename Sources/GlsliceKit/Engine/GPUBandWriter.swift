/// A large output drawn band by band on the GL thread into a `BandStream`
/// that an encoder reads: the one loop of the batch's draw stage and of
/// serve's shared GPU thread. Bands are read back either into memory taken
/// from `budget`, or through a pixel-pack ring that lends them uncopied and
/// reads one band while the next draws.
struct GPUBandWriter {
    let gpu: GPURenderer
    let budget: MemoryBudget
    let times: StageTimes
    var banding = Banding()

    /// Uploads `job`'s cells and sends every band to `stream`, which ends with
    /// the last band, or with the error that stopped it.
    func send(_ job: PreparedJob, to stream: BandStream, ring: PixelPackRing?) {
        let clock = ContinuousClock()
        do {
            var start = clock.now
            let plan = try gpu.upload(job.plan, source: job.source.image, sourceKey: job.source.key)
            times.add(.draw, clock.now - start, items: 1)
            let size = job.size, stride = size.width * 4
            // A band, drawn and read back, within its share of the GPU budget.
            var banding = self.banding
            banding.bandBytes = min(banding.bandBytes, gpu.memory.bandBytes(readBackSlots: ring?.count ?? 0))
            let rows = banding.rows(width: size.width, height: size.height, renderer: plan)
            var y = 0
            while y < size.height {
                let count = min(rows, size.height - y), last = y + count == size.height
                if let ring, plan.drawsBandsWhole {
                    start = clock.now
                    try plan.drawBand(y..<(y + count))
                    times.add(.draw, clock.now - start)
                    try ring.read(width: size.width, height: count, renderer: gpu) { result in
                        switch result {
                        case .success(let buffer):
                            stream.send(DrawnRows(buffer: buffer, offset: 0, rows: count, rowStride: stride))
                            if last { stream.finish() }
                        case .failure(let error):
                            stream.fail(error)
                        }
                    }
                } else {
                    start = clock.now
                    let buffer = PixelBuffer(byteCount: count * stride, budget: budget)
                    times.add(.drawWait, clock.now - start)
                    try plan.renderRows(y..<(y + count), into: buffer.base, timing: times)
                    stream.send(DrawnRows(buffer: buffer, offset: 0, rows: count, rowStride: stride))
                    if last { stream.finish() }
                }
                y += count
            }
        } catch {
            stream.fail(error)
        }
    }
}
