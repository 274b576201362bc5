import CEGL

/// Many small outputs drawn as one: shelf-packed into a framebuffer of at
/// most 1024², drawn with one `QuadList`, read back with one readback, then
/// handed out as `AtlasPixels`. With a `PixelPackRing` (a real GPU) the readback
/// is asynchronous and lent to the encoders without a copy, so the next atlas
/// is drawn while this one crosses the bus.
/// Lives on the GL thread, like its session.
final class GPUAtlas<Item> {
    /// One output's place in the atlas.
    struct Placement {
        var item: Item
        var plan: GPUDrawer
        var x: Int
        var y: Int
        var size: PixelSize
    }

    /// Receives each atlas's placements with its pixels, or with the error that lost them.
    typealias Delivery = (_ placements: [Placement], _ pixels: Result<AtlasPixels, any Error>) -> Void

    /// Outputs the session's compute encoder takes from the atlas (issue 43):
    /// `request` says which (with what it needs), `deliver` gets each one's image data or error.
    struct Encoding {
        var request: (Item) -> (opaque: Bool, repeats: RepeatMap)?
        var deliver: (Item, Result<EncodedImageData, any Error>) -> Void
    }

    let session: GPUSession
    /// nil: every output is read back.
    var encoding: Encoding?
    /// Atlas side in pixels.
    let side: Int
    private let ring: PixelPackRing?
    private let deliver: Delivery
    private var shelf: Shelf
    private var pending: [Placement] = []

    /// Where atlases read back are allocated: encoders hold them, and the
    /// budget stops this thread when they hold too many.
    private let budget: MemoryBudget?
    private let times: StageTimes?
    private let clock = ContinuousClock()

    /// - Parameter ring: read back through it; nil reads synchronously into memory from `budget`.
    init(session: GPUSession, ring: PixelPackRing?, budget: MemoryBudget? = nil, times: StageTimes? = nil,
         deliver: @escaping Delivery) throws {
        self.session = session
        self.budget = budget
        self.times = times
        side = Self.side(for: session)
        shelf = Shelf(side: side)
        self.ring = ring
        self.deliver = deliver
    }

    func fits(_ size: PixelSize) -> Bool { size.width <= side && size.height <= side }

    /// An atlas's side on `session`: 1024 px, or less where its target is smaller.
    static func side(for session: GPUSession) -> Int {
        let target = session.effectiveTarget
        return max(1, min(1024, target.width, target.height))
    }

    /// Places an output that `fits`, drawing the atlas first when it is full.
    /// `upload` makes the plan's textures; its error is the caller's to report.
    func add(_ item: Item, size: PixelSize, upload: () throws -> GPUDrawer) throws {
        // Two rows of the draw's taps texture per output.
        if (pending.count + 1) * 2 > session.maxTapRows { flush() }
        if session.textureCacheOverBudget {
            // Draw what is placed (its textures are then free to go) and trim, so
            // many distinct sources in one gathering stay within the GPU budget.
            flush()
            session.trimTextureCache()
        }
        var spot = shelf.place(size)
        if spot == nil {
            flush()
            spot = shelf.place(size)
        }
        guard let spot else { throw InternalErrors.atlasFull("\(size)", side: side) }
        pending.append(Placement(item: item, plan: try upload(), x: spot.x, y: spot.y, size: size))
    }

    /// Places `items` tallest first (shelves pack tighter), uploading each one's
    /// cells (timed as draw); an item whose upload fails goes to `failed`.
    /// Returns the items too large for an atlas, for the caller to draw in strips.
    func place(_ items: [Item], size: (Item) -> PixelSize, upload: (Item) throws -> GPUDrawer,
               failed: (Item, any Error) -> Void) -> [Item] {
        var large: [Item] = []
        for item in items.sorted(by: { size($0).height > size($1).height }) {
            guard fits(size(item)) else {
                large.append(item)
                continue
            }
            do {
                // Timed inside: `add` draws a full atlas itself, which `flush` times.
                try add(item, size: size(item)) {
                    let start = clock.now
                    defer { times?.add(.draw, clock.now - start, items: 1) }
                    return try upload(item)
                }
            } catch {
                failed(item, error)
            }
        }
        return large
    }

    /// Draws what is placed and reads it back (or starts to, with the ring).
    func flush() {
        let placed = pending, width = shelf.usedWidth, height = shelf.usedHeight
        pending.removeAll()
        shelf = Shelf(side: side)
        guard !placed.isEmpty else { return }
        // Those not yet handed on: an error after the GPU encoded some goes to the rest only.
        var undelivered = placed
        do {
            var start = clock.now
            try session.context.makeCurrent()
            var quads = QuadList()
            for item in placed {
                quads.append(item.plan, columns: 0..<item.size.width, rows: 0..<item.size.height, at: (item.x, item.y))
            }
            try session.draw(quads, width: width, height: height)
            times?.add(.draw, clock.now - start)
            let rest = encodeOnGPU(placed, width: width, height: height)
            undelivered = rest
            guard !rest.isEmpty else { return }
            if let ring {
                let deliver = self.deliver
                try ring.read(width: width, height: height, session: session) { buffer in
                    deliver(rest, buffer.map { AtlasPixels(width: width, height: height, buffer: $0) })
                }
            } else {
                let pixels = allocate(width: width, height: height)
                start = clock.now
                try session.readPixels(width: width, height: height, rowLength: width, into: pixels.buffer.base)
                times?.add(.readBack, clock.now - start, items: 1)
                deliver(rest, .success(pixels))
            }
        } catch {
            deliver(undelivered, .failure(error))
        }
    }

    /// Encodes on the GPU the drawn outputs `encoding` asks for, all in one
    /// call, straight from the framebuffer (read into the encoder's buffer, on
    /// the GPU), and delivers them; returns the rest, to be read back.
    private func encodeOnGPU(_ placed: [Placement], width: Int, height: Int) -> [Placement] {
        guard let encoding, case .success(let encoder) = session.encoder else { return placed }
        var rest: [Placement] = [], taken: [(Placement, (opaque: Bool, repeats: RepeatMap))] = []
        for placement in placed {
            if let request = encoding.request(placement.item) { taken.append((placement, request)) } else { rest.append(placement) }
        }
        guard !taken.isEmpty else { return rest }
        let start = clock.now, glAtStart = GLTally.here
        var encodedHere: [(Item, Result<EncodedImageData, any Error>)] = []
        defer {
            times?.addGPUEncode(clock.now - start, gl: GLTally.here - glAtStart, items: taken.count)
            // Handed on after the clock stops: a full queue's wait is not the GPU thread's work.
            for (item, result) in encodedHere { encoding.deliver(item, result) }
        }
        let images = taken.map { p, request in
            GPUEncoder.Image(x0: p.x, y0: p.y, stride: width, size: p.size, opaque: request.opaque, repeats: request.repeats)
        }
        let encoded: [Result<EncodedImageData, any Error>]
        do {
            let pixels = try encoder.pixelBuffer(bytes: width * height * 4)
            try session.readPixels(width: width, height: height, rowLength: width, intoBuffer: pixels, offset: 0)
            encoded = try encoder.encode(images)
        } catch {
            // The passes failed (a GL error: out of memory, say): the atlas is still drawn, so all are read back.
            return rest + taken.map(\.0)
        }
        for ((p, _), result) in zip(taken, encoded) {
            switch result {
            case .success: encodedHere.append((p.item, result))
            case .failure: rest.append(p) // the GPU could not encode this one (a limit, llvmpipe's loop limit): read back
            }
        }
        return rest
    }

    /// Draws what is placed and delivers every readback still in flight.
    func finish() {
        flush()
        ring?.finish()
    }
}

extension GPUAtlas {
    /// Memory for an atlas read back, waiting (as draw-wait) while the encoders hold the budget.
    private func allocate(width: Int, height: Int) -> AtlasPixels {
        let start = clock.now
        let buffer = PixelBuffer(byteCount: width * height * 4, budget: budget)
        times?.add(.drawWait, clock.now - start)
        return AtlasPixels(width: width, height: height, buffer: buffer)
    }
}

/// An atlas read back: premultiplied RGBA8, bottom row of the framebuffer
/// first, as `glReadPixels` gives it. Nobody writes it once delivered, so
/// encoder threads share it.
struct AtlasPixels: Sendable {
    package let width: Int
    package let height: Int
    package let buffer: PixelBuffer

    /// Byte offset of the output placed at (`x`, `y`).
    func offset(x: Int, y: Int) -> Int { (y * width + x) * 4 }
}

/// Shelf packing: left to right along a shelf, a new shelf below when full.
struct Shelf {
    let side: Int
    var x = 0
    var y = 0
    var shelfHeight = 0
    /// The widest extent of any shelf so far.
    var usedWidth = 0

    init(side: Int) { self.side = side }

    var usedHeight: Int { y + shelfHeight }

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
