import CEGL

/// Many small outputs drawn as one: shelf-packed into a framebuffer of at
/// most 1024², drawn with one `QuadList`, read back with one readback, then
/// handed out as `AtlasPixels`. On a real GPU the readback goes through a ring
/// of pixel-pack buffers, so the next atlas is drawn while this one is copied.
/// Lives on the GL thread, like its renderer.
final class AtlasRenderer<Item> {
    /// One output's place in the atlas.
    struct Placement {
        var item: Item
        var plan: GPURenderer.UploadedPlan
        var x: Int
        var y: Int
        var size: PixelSize
    }

    /// Receives each atlas's placements with its pixels, or with the error that lost them.
    typealias Delivery = (_ placements: [Placement], _ pixels: Result<AtlasPixels, any Error>) -> Void

    let renderer: GPURenderer
    /// Atlas side in pixels.
    let side: Int
    private let ring: PixelPackRing?
    private let deliver: Delivery
    private var shelf: Shelf
    private var pending: [Placement] = []
    private var inFlight: [(slot: Int, placements: [Placement], width: Int, height: Int)] = []

    /// Where atlases read back are allocated: encoders hold them, and the
    /// budget stops this thread when they hold too many.
    private let budget: MemoryBudget?
    private let times: StageTimes?
    private let clock = ContinuousClock()

    init(renderer: GPURenderer, pixelPackRing: Bool, budget: MemoryBudget? = nil, times: StageTimes? = nil,
         deliver: @escaping Delivery) throws {
        self.renderer = renderer
        self.budget = budget
        self.times = times
        let target = renderer.effectiveTarget
        side = max(1, min(1024, target.width, target.height))
        shelf = Shelf(side: side)
        ring = pixelPackRing ? try PixelPackRing(count: 3) : nil
        self.deliver = deliver
    }

    func fits(_ size: PixelSize) -> Bool { size.width <= side && size.height <= side }

    /// Places an output that `fits`, drawing the atlas first when it is full.
    /// `upload` makes the plan's textures; its error is the caller's to report.
    func add(_ item: Item, size: PixelSize, upload: () throws -> GPURenderer.UploadedPlan) throws {
        var spot = shelf.place(size)
        if spot == nil {
            flush()
            spot = shelf.place(size)
        }
        guard let spot else { throw GlsliceError(.internal, "output \(size) does not fit a \(side)² atlas") }
        pending.append(Placement(item: item, plan: try upload(), x: spot.x, y: spot.y, size: size))
    }

    /// Draws what is placed and reads it back (or starts to, with the ring).
    func flush() {
        let placed = pending, width = shelf.usedWidth, height = shelf.usedHeight
        pending.removeAll()
        shelf = Shelf(side: side)
        guard !placed.isEmpty else { return }
        do {
            var start = clock.now
            try renderer.context.makeCurrent()
            var quads = GPURenderer.QuadList()
            for item in placed {
                quads.append(item.plan, columns: 0..<item.size.width, rows: 0..<item.size.height, at: (item.x, item.y))
            }
            try renderer.draw(quads, width: width, height: height)
            times?.add(.draw, clock.now - start)
            if let ring {
                if inFlight.count >= ring.count - 1 { collect(inFlight.removeFirst()) }
                start = clock.now
                let slot = try ring.start(width: width, height: height, renderer: renderer)
                times?.add(.readBack, clock.now - start)
                inFlight.append((slot, placed, width, height))
            } else {
                let pixels = allocate(width: width, height: height)
                start = clock.now
                try renderer.readPixels(width: width, height: height, rowLength: width, into: pixels.buffer.base)
                times?.add(.readBack, clock.now - start, items: 1)
                deliver(placed, .success(pixels))
            }
        } catch {
            deliver(placed, .failure(error))
        }
    }

    /// Flushes and waits for every readback still in flight.
    func finish() {
        flush()
        while !inFlight.isEmpty { collect(inFlight.removeFirst()) }
    }

    private func collect(_ flight: (slot: Int, placements: [Placement], width: Int, height: Int)) {
        guard let ring else { return }
        do {
            let pixels = allocate(width: flight.width, height: flight.height)
            let start = clock.now
            try ring.finish(flight.slot, bytes: pixels.buffer.byteCount) { mapped in
                pixels.buffer.base.update(from: mapped.assumingMemoryBound(to: UInt8.self), count: pixels.buffer.byteCount)
            }
            times?.add(.readBack, clock.now - start, items: 1)
            deliver(flight.placements, .success(pixels))
        } catch {
            deliver(flight.placements, .failure(error))
        }
    }
}

extension AtlasRenderer {
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
public struct AtlasPixels: Sendable {
    public let width: Int
    public let height: Int
    public let buffer: PixelBuffer

    /// Byte offset of the output placed at (`x`, `y`).
    public func offset(x: Int, y: Int) -> Int { (y * width + x) * 4 }
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

/// A ring of pixel-pack buffers with fences: `glReadPixels` into a buffer
/// returns at once on a real GPU, so the next atlas is drawn while this one
/// is copied out. (On llvmpipe the read is synchronous and the ring only costs.)
final class PixelPackRing {
    private var buffers: [GLuint]
    private var capacities: [Int]
    private var fences: [GLsync?]
    private var next = 0

    init(count: Int) throws {
        buffers = [GLuint](repeating: 0, count: count)
        capacities = [Int](repeating: 0, count: count)
        fences = [GLsync?](repeating: nil, count: count)
        try GLCheck.gl("glGenBuffers(pixel pack)") { glGenBuffers(GLsizei(count), &buffers) }
    }

    deinit {
        for fence in fences { if let fence { glDeleteSync(fence) } }
        glDeleteBuffers(GLsizei(buffers.count), buffers)
    }

    var count: Int { buffers.count }

    /// Starts reading the framebuffer's `width × height` pixels; returns the slot.
    func start(width: Int, height: Int, renderer: GPURenderer) throws -> Int {
        let slot = next
        next = (next + 1) % buffers.count
        let bytes = width * height * 4
        let target = GLenum(GL_PIXEL_PACK_BUFFER)
        try GLCheck.gl("glBindBuffer(GL_PIXEL_PACK_BUFFER)") { glBindBuffer(target, buffers[slot]) }
        if capacities[slot] < bytes {
            try GLCheck.gl("glBufferData(GL_PIXEL_PACK_BUFFER)") { glBufferData(target, bytes, nil, GLenum(GL_STREAM_READ)) }
            capacities[slot] = bytes
        }
        try renderer.readPixels(width: width, height: height, rowLength: width, into: nil)
        let fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        try GLCheck.gl("glFenceSync")
        fences[slot] = fence
        try GLCheck.gl("glBindBuffer(0)") { glBindBuffer(target, 0) }
        return slot
    }

    /// Waits for `slot`'s read and hands its bytes to `body`.
    func finish(_ slot: Int, bytes: Int, _ body: (UnsafeRawPointer) throws -> Void) throws {
        if let fence = fences[slot] {
            let status = glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 10_000_000_000)
            glDeleteSync(fence)
            fences[slot] = nil
            guard status == GLenum(GL_ALREADY_SIGNALED) || status == GLenum(GL_CONDITION_SATISFIED) else {
                throw GlsliceError(.internal, "glClientWaitSync failed: 0x\(String(status, radix: 16))")
            }
        }
        let target = GLenum(GL_PIXEL_PACK_BUFFER)
        try GLCheck.gl("glBindBuffer(GL_PIXEL_PACK_BUFFER)") { glBindBuffer(target, buffers[slot]) }
        defer { glBindBuffer(target, 0) }
        guard let mapped = glMapBufferRange(target, 0, bytes, GLbitfield(GL_MAP_READ_BIT)) else {
            throw GlsliceError(.internal, "glMapBufferRange failed: \(GLCheck.glErrorName(glGetError()))")
        }
        defer { glUnmapBuffer(target) }
        try body(UnsafeRawPointer(mapped))
    }
}
