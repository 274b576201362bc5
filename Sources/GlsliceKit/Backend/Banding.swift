/// How outputs are cut into bands of rows: memory is bounded by one band.
package struct Banding: Sendable {
    /// Bytes of premultiplied rows held at once.
    package var bandBytes: Int
    /// Forces at most this many rows per band (tests use it to make strips cheap).
    package var maxRows: Int?

    package init(bandBytes: Int = 32 << 20, maxRows: Int? = nil) {
        self.bandBytes = bandBytes
        self.maxRows = maxRows
    }

    package func rows(width: Int, height: Int, renderer: any BandRenderer) -> Int {
        var rows = max(1, bandBytes / max(1, width * 4))
        rows = min(rows, renderer.maxBandRows, height)
        if let maxRows { rows = min(rows, max(1, maxRows)) }
        return max(1, rows)
    }

    /// The one band loop: renders `size` band by band and hands each band to
    /// `sink` in order, holding one band in memory.
    package func render(_ renderer: any BandRenderer, size: PixelSize, into sink: any RowSink,
                       drawn: (Duration) -> Void = { _ in }) throws {
        let clock = ContinuousClock()
        let width = size.width, height = size.height
        let rows = self.rows(width: width, height: height, renderer: renderer)
        let band = UnsafeMutablePointer<UInt8>.allocate(capacity: rows * width * 4)
        defer { band.deallocate() }
        var y = 0
        while y < height {
            let count = min(rows, height - y)
            let start = clock.now
            try renderer.renderRows(y..<(y + count), into: band)
            drawn(clock.now - start)
            try sink.write(premultipliedRows: band, count: count)
            y += count
        }
    }
}
