/// How many rows an output's strips hold, and the loop that draws them into an encoder (rows
/// walked by `Range.eachStrip`, the one strip loop): memory is bounded by one strip,
/// whichever drawer draws it.
package struct Strips: Sendable {
    /// Bytes of premultiplied rows held at once.
    var stripBytes: Int
    /// Forces at most this many rows per strip (tests use it to make strips cheap).
    var maxRows: Int?

    init(stripBytes: Int = 32 << 20, maxRows: Int? = nil) {
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

    /// Draws `size` strip by strip with `drawer` and hands each strip to `sink`
    /// in order, holding one strip in memory. `drawn` is told each strip's draw time.
    package func draw(_ drawer: any Drawer, size: PixelSize, into sink: any StripSink,
                      drawn: (StageTime) -> Void = { _ in }) throws {
        let rows = self.rows(width: size.width, height: size.height, drawer: drawer)
        let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: rows * size.width * 4)
        defer { strip.deallocate() }
        try (0..<size.height).eachStrip(of: rows) { range, _ in
            let start = StageClock.now
            try drawer.drawRows(range, into: strip)
            drawn(StageClock.now - start)
            try sink.write(premultipliedRows: strip, count: range.count)
        }
    }
}
