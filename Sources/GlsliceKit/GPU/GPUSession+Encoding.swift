import CEGL

/// The session's GPU encoding (issue 43): which outputs its compute encoder
/// takes, and drawing one into the encoder's pixel buffer to encode it there.
extension GPUSession {
    /// Whether the encoder takes an output of `size` with `compression`: `fast`
    /// PNGs drawn in whole-width strips, whose pixels fit a quarter of the GPU
    /// budget (drawn whole into its buffer), or which are too large for a
    /// palette (drawn and encoded a strip at a time). The rest are read back and
    /// encoded on the CPU, with the same bytes.
    func encodes(_ format: ImageFormat, _ compression: Compression, size: PixelSize) -> Bool {
        guard gpuEncoding, format == .png, compression == .fast, size.width <= effectiveTarget.width,
              fitsWhole(size) || size.width * size.height > PNGEncoder.maxIndexedPixels else { return false }
        if case .success = encoder { return true }
        return false
    }

    private func fitsWhole(_ size: PixelSize) -> Bool { size.width * size.height * 4 <= memory.budget / 4 }

    /// Reads the framebuffer's bottom-left `width × height` pixels into buffer
    /// `name` at `offset` bytes, on the GPU (nothing crosses to the CPU).
    func readPixels(width: Int, height: Int, rowLength: Int, intoBuffer name: GLuint, offset: Int) throws {
        try GLCheck.gl("glBindBuffer(GL_PIXEL_PACK_BUFFER)") { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), name) }
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        try readPixels(width: width, height: height, rowLength: rowLength, into: UnsafeMutableRawPointer(bitPattern: offset))
    }

    /// Draws `drawer`'s output strip by strip (`rows` at most each) into the
    /// encoder's pixel buffer and encodes it there: whole when it fits, else a
    /// strip at a time (`GPUEncoder.encodeInStrips`). Draw calls are charged to
    /// `.draw`, the rest to `.gpuEncode`.
    func encode(_ drawer: GPUDrawer, opaque: Bool, repeats: RepeatMap, stripRows: Int, times: StageTimes?) throws -> EncodedImageData {
        let encoder = try encoder.get()
        let clock = ContinuousClock(), start = clock.now
        let size = drawer.plan.size
        var drawing: Duration = .zero
        /// Draws `rows` into buffer `pixels`, from its start.
        func draw(_ rows: Range<Int>, into pixels: GLuint) throws {
            let start = clock.now
            defer { drawing += clock.now - start }
            for first in stride(from: rows.lowerBound, to: rows.upperBound, by: max(1, stripRows)) {
                let strip = first..<min(rows.upperBound, first + max(1, stripRows))
                try drawer.drawStrip(strip)
                try readPixels(width: size.width, height: strip.count, rowLength: size.width, intoBuffer: pixels,
                               offset: (first - rows.lowerBound) * size.width * 4)
            }
        }
        defer {
            times?.add(.draw, drawing)
            times?.add(.gpuEncode, clock.now - start - drawing, items: 1)
        }
        guard fitsWhole(size) else {
            return try encoder.encodeInStrips(size: size, opaque: opaque, repeats: repeats) { rows, pixels in try draw(rows, into: pixels) }
        }
        try draw(0..<size.height, into: try encoder.pixelBuffer(bytes: size.width * size.height * 4))
        return try encoder.encode(GPUEncoder.Image(stride: size.width, size: size, opaque: opaque, repeats: repeats))
    }
}
