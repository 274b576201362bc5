/// A rectangle of rows inside a `PixelBuffer`.
package struct DrawnRows: Sendable {
    package var buffer: PixelBuffer
    /// Byte offset of the first row.
    package var offset: Int
    package var rows: Int
    /// Bytes from one row to the next.
    package var rowStride: Int

    package init(buffer: PixelBuffer, offset: Int, rows: Int, rowStride: Int) {
        self.buffer = buffer
        self.offset = offset
        self.rows = rows
        self.rowStride = rowStride
    }

    var first: UnsafePointer<UInt8> { UnsafePointer(buffer.base + offset) }
}

/// Bands of one output drawn on another thread, arriving in order: the GPU
/// draws a large output band by band and its encoder writes each as it comes.
package final class BandStream: Sendable {
    private let bands: BoundedQueue<DrawnRows>
    private let failure = Locked<GlsliceError?>(nil)

    /// - Parameter depth: bands drawn ahead of the encoder at most.
    package init(depth: Int = 4) { bands = BoundedQueue(capacity: depth) }

    /// The drawer: the next band (blocks while `depth` bands wait).
    package func send(_ rows: DrawnRows) { bands.push(rows) }

    /// The drawer: every band was sent.
    package func finish() { bands.close() }

    /// The drawer: no more bands will come, because of `error`.
    package func fail(_ error: any Error) {
        failure.withLock { $0 = GlsliceError.from(error) }
        bands.cancel()
    }

    /// The encoder: the next band, nil after the last; throws the drawer's error.
    func next() throws -> DrawnRows? {
        let band = bands.pop()
        if band == nil, let error = failure.withLock({ $0 }) { throw error }
        return band
    }
}
