import CEGL
import Foundation

/// The GPU side of a batch: one GL thread packs many small outputs into one
/// large framebuffer (shelf packing), draws them, reads them back with one
/// `glReadPixels`, and hands each output to encoder threads.
final class GPUBatch: @unchecked Sendable {
    let runner: BatchRunner
    let gpu: GPURenderer
    let encoders: Int
    /// Atlas side in pixels.
    let atlasSide: Int
    let encodeQueue: BoundedQueue<(BatchRunner.Prepared, PremultipliedImage)>
    /// Pixel-pack ring on real GPUs (or when `GLSLICE_PBO=1`); nil on llvmpipe.
    let ring: PixelPackRing?

    struct Placed {
        var job: BatchRunner.Prepared
        var gpuJob: GPURenderer.Prepared
        var x: Int
        var y: Int
    }

    /// An atlas whose pixels are being read back.
    struct InFlight {
        var slot: Int
        var items: [Placed]
        var width: Int
        var height: Int
    }

    init(runner: BatchRunner, gpu: GPURenderer, encoders: Int) throws {
        self.runner = runner
        self.gpu = gpu
        self.encoders = encoders
        let target = gpu.effectiveTarget
        atlasSide = max(1, min(1024, target.width, target.height))
        encodeQueue = BoundedQueue(capacity: encoders * 4)
        let setting = ProcessInfo.processInfo.environment["GLSLICE_PBO"].map { $0 == "1" }
        let useRing = setting ?? runner.options.pixelPackRing ?? !gpu.context.isSoftware
        ring = useRing ? try PixelPackRing(count: 3) : nil
    }

    func run(feeder: Thread, queue: BoundedQueue<ManifestJob>) throws {
        let group = DispatchGroup()
        for _ in 0..<encoders {
            group.enter()
            let thread = Thread { [self] in
                while let (prepared, image) = encodeQueue.pop() { encode(prepared, image) }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        feeder.start()
        defer {
            encodeQueue.close()
            group.wait()
        }
        var inFlight: [InFlight] = []
        while true {
            let jobs = queue.popBatch(limit: 256)
            if jobs.isEmpty { break }
            var shelf = Shelf(side: atlasSide)
            var placed: [Placed] = []
            // Tallest first packs shelves tighter.
            let ready = jobs.compactMap { runner.prepare($0) }
                .sorted { $0.plan.size.height > $1.plan.size.height }
            for prepared in ready {
                let size = prepared.plan.size
                guard size.width <= atlasSide, size.height <= atlasSide else {
                    renderAlone(prepared)
                    continue
                }
                var spot = shelf.place(size)
                if spot == nil {
                    try flush(&placed, width: shelf.usedWidth, height: shelf.usedHeight, inFlight: &inFlight)
                    shelf = Shelf(side: atlasSide)
                    spot = shelf.place(size)
                }
                guard let spot else { continue }
                do {
                    let gpuJob = try gpu.prepare(prepared.plan, source: prepared.source, sourceKey: prepared.sourceKey)
                    placed.append(Placed(job: prepared, gpuJob: gpuJob, x: spot.x, y: spot.y))
                } catch {
                    runner.fail(prepared.job, error, started: prepared.started)
                }
            }
            try flush(&placed, width: shelf.usedWidth, height: shelf.usedHeight, inFlight: &inFlight)
            gpu.trimTextureCache()
        }
        while !inFlight.isEmpty { try finish(inFlight.removeFirst()) }
    }

    /// Large outputs go through the band renderer straight into their encoder.
    private func renderAlone(_ prepared: BatchRunner.Prepared) {
        do {
            let bytes = try Render.encode(plan: prepared.plan, source: prepared.source, to: .file(prepared.job.output),
                                          compression: prepared.job.options.compression,
                                          backend: Backend(description: "gpu", gpu: gpu),
                                          text: (BatchRunner.digestKey, prepared.digest))
            runner.succeed(prepared, bytes: bytes)
        } catch {
            runner.fail(prepared.job, error, started: prepared.started)
        }
    }

    /// Draws the placed outputs as one atlas and reads it back (or starts to).
    private func flush(_ placed: inout [Placed], width: Int, height: Int, inFlight: inout [InFlight]) throws {
        guard !placed.isEmpty else { return }
        defer { placed.removeAll() }
        do {
            try gpu.context.makeCurrent()
            var quads = GPURenderer.QuadList()
            for item in placed {
                let size = item.job.plan.size
                quads.append(item.gpuJob, columns: 0..<size.width, rows: 0..<size.height, at: (item.x, item.y))
            }
            try gpu.draw(quads, width: width, height: height)
            if let ring {
                if inFlight.count >= ring.count - 1 { try finish(inFlight.removeFirst()) }
                let slot = try ring.start(width: width, height: height)
                inFlight.append(InFlight(slot: slot, items: placed, width: width, height: height))
            } else {
                var pixels = [UInt8](repeating: 0, count: width * height * 4)
                try pixels.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    try gpu.readPixels(width: width, height: height, into: base)
                    split(placed, atlas: UnsafeRawPointer(base), width: width)
                }
            }
        } catch {
            for item in placed { runner.fail(item.job.job, error, started: item.job.started) }
        }
    }

    private func finish(_ flight: InFlight) throws {
        guard let ring else { return }
        do {
            try ring.finish(flight.slot, bytes: flight.width * flight.height * 4) { pixels in
                split(flight.items, atlas: pixels, width: flight.width)
            }
        } catch {
            for item in flight.items { runner.fail(item.job.job, error, started: item.job.started) }
        }
    }

    /// Copies each output's rectangle out of the atlas and queues it for encoding.
    private func split(_ items: [Placed], atlas: UnsafeRawPointer, width: Int) {
        let bytes = atlas.assumingMemoryBound(to: UInt8.self)
        for item in items {
            let size = item.job.plan.size
            var pixels = [UInt8](repeating: 0, count: size.pixelCount * 4)
            pixels.withUnsafeMutableBufferPointer { out in
                guard let base = out.baseAddress else { return }
                for row in 0..<size.height {
                    (base + row * size.width * 4).update(from: bytes + ((item.y + row) * width + item.x) * 4,
                                                         count: size.width * 4)
                }
            }
            encodeQueue.push((item.job, PremultipliedImage(RGBAImage(width: size.width, height: size.height, pixels: pixels))))
        }
    }

    private func encode(_ prepared: BatchRunner.Prepared, _ image: PremultipliedImage) {
        do {
            let bytes = try PNGEncoder.write(image, to: .file(prepared.job.output),
                                             compression: prepared.job.options.compression,
                                             text: (BatchRunner.digestKey, prepared.digest))
            runner.succeed(prepared, bytes: bytes)
        } catch {
            runner.fail(prepared.job, error, started: prepared.started)
        }
    }
}

/// Shelf packing: left to right along a shelf, a new shelf below when full.
struct Shelf {
    let side: Int
    var x = 0
    var y = 0
    var shelfHeight = 0

    init(side: Int) { self.side = side }

    var usedHeight: Int { y + shelfHeight }
    /// The widest extent of any shelf so far.
    var usedWidth = 0

    mutating func place(_ size: PixelSize) -> (x: Int, y: Int)? {
        if x + size.width > side {
            y += shelfHeight
            x = 0
            shelfHeight = 0
        }
        guard y + size.height <= side, size.width <= side else { return nil }
        defer {
            x += size.width
            usedWidth = max(usedWidth, x)
            shelfHeight = max(shelfHeight, size.height)
        }
        return (x, y)
    }
}
