import CEGL

/// The session's GPU encoding (issue 43): which outputs its compute encoder
/// takes, and drawing one into the encoder's pixel buffer to encode it there.
extension GPUSession {
    /// Whether the encoder takes an output of `size` with `compression`: `fast`
    /// PNGs whose pixels fit a quarter of the GPU budget, drawn in whole-width
    /// strips. The rest are read back and encoded on the CPU, with the same bytes.
    func encodes(_ format: ImageFormat, _ compression: Compression, size: PixelSize) -> Bool {
        guard gpuEncoding, format == .png, compression == .fast, size.width <= effectiveTarget.width,
              size.width * size.height * 4 <= memory.budget / 4 else { return false }
        if case .success = encoder { return true }
        return false
    }

    /// Reads the framebuffer's bottom-left `width × height` pixels into buffer
    /// `name` at `offset` bytes, on the GPU (nothing crosses to the CPU).
    func readPixels(width: Int, height: Int, rowLength: Int, intoBuffer name: GLuint, offset: Int) throws {
        try GLCheck.gl("glBindBuffer(GL_PIXEL_PACK_BUFFER)") { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), name) }
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        try readPixels(width: width, height: height, rowLength: rowLength, into: UnsafeMutableRawPointer(bitPattern: offset))
    }

    /// Draws `drawer`'s output strip by strip (`rows` at most each) into the
    /// encoder's pixel buffer and encodes it there; draw calls are charged to
    /// `.draw`, the rest to `.gpuEncode`.
    func encode(_ drawer: GPUDrawer, opaque: Bool, repeats: RepeatMap, stripRows: Int, times: StageTimes?) throws -> EncodedImageData {
        let encoder = try encoder.get()
        let clock = ContinuousClock()
        let size = drawer.plan.size
        let pixels = try encoder.pixelBuffer(bytes: size.width * size.height * 4)
        var start = clock.now
        var y = 0
        while y < size.height {
            let rows = y..<min(size.height, y + max(1, stripRows))
            try drawer.drawStrip(rows)
            try readPixels(width: size.width, height: rows.count, rowLength: size.width, intoBuffer: pixels, offset: y * size.width * 4)
            y = rows.upperBound
        }
        times?.add(.draw, clock.now - start)
        start = clock.now
        defer { times?.add(.gpuEncode, clock.now - start, items: 1) }
        return try encoder.encode(x0: 0, y0: 0, stride: size.width, size: size, opaque: opaque, repeats: repeats)
    }
}
