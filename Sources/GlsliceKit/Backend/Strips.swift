/// How an output is cut into strips of rows, and the one strip loop: memory
/// is bounded by one strip, whichever drawer draws it.
package struct Strips: Sendable {
    /// Bytes of premultiplied rows held at once.
    var stripBytes: Int
    /// Forces at most this many rows per strip (tests use it to make strips cheap).
    var maxRows: Int?

    package init(stripBytes: Int = 32 << 20, maxRows: Int? = nil) {
        self.stripBytes = stripBytes
        self.maxRows = maxRows
    }

    /// Rows per strip of a `width × height` output drawn by `drawer`.
    func rows(width: Int, height: Int, drawer: any Drawer) -> Int {
        var rows = max(1, stripBytes / max(1, width * 4))
        rows = min(rows, drawer.maxStripRows, height)
        if let maxRows { rows = min(rows, max(1, maxRows)) }
        return max(1, rows)
    }

    /// The strips of a `height`-row output, in order, `rows` at a time.
    static func ranges(height: Int, rows: Int) -> [Range<Int>] {
        stride(from: 0, to: height, by: max(1, rows)).map { $0..<min($0 + max(1, rows), height) }
    }

    /// Draws `size` strip by strip with `drawer` and hands each strip to `sink`
    /// in order, holding one strip in memory. `drawn` is told each strip's draw time.
    package func draw(_ drawer: any Drawer, size: PixelSize, into sink: any StripSink,
                      drawn: (Duration) -> Void = { _ in }) throws {
        let clock = ContinuousClock()
        let rows = self.rows(width: size.width, height: size.height, drawer: drawer)
        let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: rows * size.width * 4)
        defer { strip.deallocate() }
        for range in Self.ranges(height: size.height, rows: rows) {
            let start = clock.now
            try drawer.drawRows(range, into: strip)
            drawn(clock.now - start)
            try sink.write(premultipliedRows: strip, count: range.count)
        }
    }
}
