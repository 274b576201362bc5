import CEGL
import Dispatch

/// Readbacks through a ring of pixel-pack buffers, handed to the encoders
/// without a copy. `glReadPixels` into a buffer returns at once on a real GPU;
/// once its fence has passed, the buffer is mapped and its memory lent to the
/// encoders as a `PixelBuffer`, and the GL thread unmaps it only after the last
/// encoder lets go. So the GL thread neither waits for the copy over the bus
/// nor copies the pixels itself. (On llvmpipe the read is synchronous and the
/// ring only costs, so it is off there unless asked for.) Lives on the GL thread;
/// only the release of a lent buffer comes from other threads.
final class PixelPackRing {
    private enum State {
        case free
        /// Being read into; `fence` passes when the pixels are there.
        case reading(fence: GLsync)
        /// Mapped and lent to encoders.
        case lent
    }

    private struct Flight {
        var slot: Int
        var bytes: Int
        var deliver: (Result<PixelBuffer, any Error>) -> Void
    }

    private var buffers: [GLuint]
    private var capacities: [Int]
    private var states: [State]
    /// Oldest first: deliveries keep the order reads were started in.
    private var flights: [Flight] = []
    /// Slots whose lent memory nobody reads any more, posted by encoder threads.
    private let released = Locked<[Int]>([])
    private let releasedSignal = DispatchSemaphore(value: 0)
    private let times: StageTimes?
    private let clock = ContinuousClock()

    init(count: Int, times: StageTimes? = nil) throws {
        buffers = [GLuint](repeating: 0, count: count)
        capacities = [Int](repeating: 0, count: count)
        states = [State](repeating: .free, count: count)
        self.times = times
        try GLCheck.gl("glGenBuffers(pixel pack)") { glGenBuffers(GLsizei(count), &buffers) }
    }

    deinit {
        // `finish()` has waited for every lent buffer; anything still here is unmapped with its buffer.
        for state in states { if case .reading(let fence) = state { glDeleteSync(fence) } }
        glDeleteBuffers(GLsizei(buffers.count), buffers)
    }

    var count: Int { buffers.count }

    /// Starts reading the framebuffer's bottom-left `width × height` pixels;
    /// `deliver` gets them later on this thread, in the order reads started
    /// (from a later `read`, `poll` or `finish`).
    func read(width: Int, height: Int, session: GPUSession,
              deliver: @escaping (Result<PixelBuffer, any Error>) -> Void) throws {
        let slot = try freeSlot()
        let bytes = width * height * 4
        let target = GLenum(GL_PIXEL_PACK_BUFFER)
        let start = clock.now
        defer { times?.add(.readBack, clock.now - start) }
        try GLCheck.gl("glBindBuffer(GL_PIXEL_PACK_BUFFER)") { glBindBuffer(target, buffers[slot]) }
        defer { glBindBuffer(target, 0) }
        // Sized for this read: a slot made large for one strip shrinks back on its next smaller read.
        if !GPUMemory.keeps(capacity: capacities[slot], needed: bytes) {
            try GLCheck.gl("glBufferData(GL_PIXEL_PACK_BUFFER)") { glBufferData(target, bytes, nil, GLenum(GL_STREAM_READ)) }
            capacities[slot] = bytes
            session.memory.set(.readBack, capacities.reduce(0, +))
        }
        try session.readPixels(width: width, height: height, rowLength: width, into: nil, intoPackBuffer: true)
        guard let fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0) else {
            throw InternalErrors.glFailed("glFenceSync", GLCheck.glErrorName(glGetError()))
        }
        states[slot] = .reading(fence: fence)
        flights.append(Flight(slot: slot, bytes: bytes, deliver: deliver))
    }

    /// Delivers the reads whose fences have passed, without waiting.
    func poll() {
        while let oldest = flights.first, case .reading(let fence) = states[oldest.slot],
              glClientWaitSync(fence, 0, 0) != GLenum(GL_TIMEOUT_EXPIRED) {
            completeOldest()
        }
    }

    /// Delivers every read, then waits until the encoders have let go of every
    /// lent buffer and unmaps it: after this the ring may be deleted.
    func finish() {
        while !flights.isEmpty { completeOldest() }
        while states.contains(where: { if case .lent = $0 { true } else { false } }) {
            reclaim()
            if states.contains(where: { if case .lent = $0 { true } else { false } }) { waitForRelease() }
        }
    }

    /// A free slot: a released one, else the oldest read completed, else
    /// (every slot lent) the first one an encoder lets go.
    private func freeSlot() throws -> Int {
        while true {
            reclaim()
            if let free = states.firstIndex(where: { if case .free = $0 { true } else { false } }) { return free }
            if !flights.isEmpty {
                completeOldest()
                continue
            }
            waitForRelease()
        }
    }

    private func waitForRelease() {
        let start = clock.now
        releasedSignal.wait()
        times?.add(.drawWait, clock.now - start)
    }

    /// Unmaps the slots the encoders have let go of.
    private func reclaim() {
        let slots = released.withLock { slots -> [Int] in
            defer { slots.removeAll() }
            return slots
        }
        let target = GLenum(GL_PIXEL_PACK_BUFFER)
        for slot in slots {
            glBindBuffer(target, buffers[slot])
            glUnmapBuffer(target)
            glBindBuffer(target, 0)
            states[slot] = .free
        }
    }

    /// Waits for the oldest read, maps it and lends it to its delivery.
    private func completeOldest() {
        let flight = flights.removeFirst()
        let start = clock.now
        let result = Result { try map(flight) }
        times?.add(.readBack, clock.now - start, items: 1)
        flight.deliver(result)
    }

    private func map(_ flight: Flight) throws -> PixelBuffer {
        let slot = flight.slot
        if case .reading(let fence) = states[slot] {
            let status = GLTally.timing(.wait) { glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 10_000_000_000) }
            glDeleteSync(fence)
            states[slot] = .free
            guard status == GLenum(GL_ALREADY_SIGNALED) || status == GLenum(GL_CONDITION_SATISFIED) else {
                throw InternalErrors.glFailed("glClientWaitSync", "0x\(String(status, radix: 16))")
            }
        }
        let target = GLenum(GL_PIXEL_PACK_BUFFER)
        try GLCheck.gl("glBindBuffer(GL_PIXEL_PACK_BUFFER)") { glBindBuffer(target, buffers[slot]) }
        defer { glBindBuffer(target, 0) }
        guard let mapped = GLTally.timing(.call, { glMapBufferRange(target, 0, flight.bytes, GLbitfield(GL_MAP_READ_BIT)) }) else {
            throw InternalErrors.glFailed("glMapBufferRange", GLCheck.glErrorName(glGetError()))
        }
        states[slot] = .lent
        let released = self.released, signal = releasedSignal
        return PixelBuffer(lent: mapped.assumingMemoryBound(to: UInt8.self), byteCount: flight.bytes) {
            released.withLock { $0.append(slot) }
            signal.signal()
        }
    }
}
