/// A rectangle of rows inside a `PixelBuffer`.
package struct Strip: Sendable {
    var buffer: PixelBuffer
    /// Byte offset of the first row.
    var offset: Int
    var rows: Int
    /// Bytes from one row to the next.
    var rowStride: Int

    init(buffer: PixelBuffer, offset: Int, rows: Int, rowStride: Int) {
        self.buffer = buffer
        self.offset = offset
        self.rows = rows
        self.rowStride = rowStride
    }

    var first: UnsafePointer<UInt8> { UnsafePointer(buffer.base + offset) }
}

/// Strips of one output drawn on another thread, arriving in order: the GPU
/// draws a large output strip by strip and its encoder writes each as it comes.
package final class StripStream: Sendable {
    private let strips: BoundedQueue<Strip>
    private let failure = Locked<GlsliceError?>(nil)

    /// - Parameter depth: strips drawn ahead of the encoder at most.
    init(depth: Int = 4) { strips = BoundedQueue(capacity: depth) }

    /// The drawer: the next strip (blocks while `depth` strips wait).
    package func send(_ rows: Strip) { strips.push(rows) }

    /// The drawer: every strip was sent.
    package func finish() { strips.close() }

    /// The drawer: no more strips will come, because of `error`.
    func fail(_ error: any Error) {
        failure.withLock { $0 = GlsliceError.from(error) }
        strips.cancel()
    }

    /// The encoder: the next strip, nil after the last; throws the drawer's error.
    func next() throws -> Strip? {
        let strip = strips.pop()
        if strip == nil, let error = failure.withLock({ $0 }) { throw error }
        return strip
    }
}
