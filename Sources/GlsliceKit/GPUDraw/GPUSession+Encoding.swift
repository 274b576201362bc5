import CEGL

/// The session's GPU encoding (issue 43): which outputs its compute encoder
/// takes, and drawing one into the encoder's pixel buffer to encode it there.
extension GPUSession {
    /// Whether the encoder takes an output of `size` with `compression`: PNGs of
    /// glslice's own deflate (`default`, `fast`) drawn in whole-width strips, whose pixels fit a quarter of the GPU
    /// budget (drawn whole into its buffer), or which are too large for a
    /// palette (drawn and encoded a strip at a time). The rest are read back and
    /// encoded on the CPU, with the same bytes.
    func encodes(_ format: ImageFormat, _ compression: Compression, size: PixelSize) -> Bool {
        guard gpuEncoding, Self.encodable(format, compression, size: size, maxWidth: effectiveTarget.width,
                                          wholePixels: wholeEncodingPixels) else { return false }
        if case .success = encoder { return true }
        return false
    }

    /// Makes the compute encoder now, when there is one (its compile and self-check), so a
    /// run's first call does not pay for them: whether it encodes, and its self-check's GPU
    /// seconds over the CPU's (the hybrid's first guess at its speed).
    func readyEncoder() -> (encodes: Bool, speedGuess: Double?) {
        guard gpuEncoding, case .success = encoder else { return (false, nil) }
        return (true, selfCheckRatio)
    }

    /// The one rule for which outputs the compute encoder takes (`encodes`, and the hybrid's
    /// `GPUFinishRule`): PNGs of glslice's own deflate drawn in whole-width strips, whose pixels
    /// fit its buffer whole, or which are too large for a palette (encoded a strip at a time).
    static func encodable(_ format: ImageFormat, _ compression: Compression, size: PixelSize, maxWidth: Int,
                          wholePixels: Int) -> Bool {
        format == .png && compression.writesPlanRepeats && size.width <= maxWidth
            && (size.width * size.height <= wholePixels || size.width * size.height > PNGEncoder.maxIndexedPixels)
    }

    /// Reads the framebuffer's bottom-left `width × height` pixels into buffer
    /// `name` at `offset` bytes, on the GPU (nothing crosses to the CPU).
    func readPixels(width: Int, height: Int, rowLength: Int, intoBuffer name: GLuint, offset: Int) throws {
        try GLCheck.gl("glBindBuffer(GL_PIXEL_PACK_BUFFER)") { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), name) }
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        try readPixels(width: width, height: height, rowLength: rowLength, into: UnsafeMutableRawPointer(bitPattern: offset), intoPackBuffer: true)
    }

    /// An output for `encode(_:times:)`: what its encoder needs, and how to
    /// upload its cells (its drawer, and the rows a strip of it takes).
    struct OutputToEncode {
        var size: PixelSize
        var opaque: Bool
        var repeats: RepeatMap
        var upload: () throws -> (drawer: GPUDrawer, stripRows: Int)
    }

    /// The most pixels `encode(_:times:)` draws whole into the encoder's buffer (`GPUMemory.encodingPixelBytes`).
    var wholeEncodingPixels: Int { memory.encodingPixelBytes / 4 }

    /// Gives back the compute encoder's buffers after a call (`GPUEncoder.shrink`), so
    /// memory between bursts stays small. A GL error here leaves them held, and the
    /// next call re-specifies them: nothing is lost but the memory until then.
    func trimEncoder() {
        guard memory.bytes(.encoder) > 4 << 20, case .success(let encoder) = encoder else { return }
        do { try encoder.shrink() } catch {}
    }

    /// One output's image data (see `encode(_:times:)`).
    func encode(_ output: OutputToEncode, times: StageTimes?) throws -> EncodedImageData {
        try encode([output], times: times)[0].get()
    }

    /// The one "GPU, else CPU" policy, for every command (render, batch, serve, parity): each
    /// output's image data from the compute encoder, or the error that sends it to the CPU's
    /// encoder, which writes the same bytes. Every error is the CPU's turn, never the output's
    /// failure: a limit, llvmpipe's loop limit, an upload or a GL error. A call that fails as a
    /// whole (a GL error in the passes, out of memory) gives back the encoder's buffers and is
    /// tried again an output at a time, so one output's trouble is its own.
    func encodeElseCPU(_ outputs: [OutputToEncode], times: StageTimes?) -> [Result<EncodedImageData, any Error>] {
        do {
            return try encode(outputs, times: times)
        } catch {
            trimEncoder()
            guard outputs.count > 1 else { return [.failure(error)] }
            return outputs.flatMap { encodeElseCPU([$0], times: times) }
        }
    }

    /// Draws outputs strip by strip into the encoder's pixel buffer, one after
    /// another, and encodes them in one call (`GPUEncoder.encode(_:)`): their
    /// pixels together must fit `wholeEncodingPixels`, or the one output is
    /// drawn and encoded a strip at a time (`GPUEncoder.encodeInStrips`). Each
    /// gets its image data or its error; an upload that fails fails its output
    /// alone, a GL error in the passes throws. Uploads and draw calls are charged to `.draw`, the rest to `.gpuEncode`
    /// (its part outside GL calls to `.gpuOwn` too).
    func encode(_ outputs: [OutputToEncode], times: StageTimes?) throws -> [Result<EncodedImageData, any Error>] {
        let encoder = try encoder.get()
        let clock = ContinuousClock(), start = clock.now, glAtStart = GLTally.here
        var drawing: Duration = .zero, drawingGL = GLCallCounts()
        /// Draws `rows` of an output into buffer `pixels`, from byte `offset`.
        func draw(_ drawer: GPUDrawer, _ rows: Range<Int>, stripRows: Int, into pixels: GLuint, at offset: Int) throws {
            let start = clock.now, width = drawer.plan.size.width, glBefore = GLTally.here
            defer {
                drawing += clock.now - start
                drawingGL = drawingGL + (GLTally.here - glBefore)
            }
            try rows.eachStrip(of: stripRows) { strip, _ in
                try drawer.drawStrip(strip)
                try readPixels(width: width, height: strip.count, rowLength: width, intoBuffer: pixels,
                               offset: offset + (strip.lowerBound - rows.lowerBound) * width * 4)
            }
        }
        /// Uploads an output's cells (timed as drawing).
        func upload(_ output: OutputToEncode) throws -> (drawer: GPUDrawer, stripRows: Int) {
            let start = clock.now, glBefore = GLTally.here
            defer {
                drawing += clock.now - start
                drawingGL = drawingGL + (GLTally.here - glBefore)
            }
            return try output.upload()
        }
        defer {
            times?.add(.draw, drawing, items: outputs.count)
            times?.addGPUEncode(clock.now - start - drawing, gl: GLTally.here - glAtStart - drawingGL, items: outputs.count)
        }
        if let most = failEncodingCallsOver, outputs.count > most { throw InternalErrors.glFailed("glBufferData", "GL_OUT_OF_MEMORY") }
        let total = outputs.reduce(0) { $0 + $1.size.width * $1.size.height }
        if outputs.count == 1, let output = outputs.first, total > wholeEncodingPixels {
            let (drawer, stripRows) = try upload(output)
            return [Result {
                try encoder.encodeInStrips(size: output.size, opaque: output.opaque, repeats: output.repeats) { rows, pixels in
                    try draw(drawer, rows, stripRows: stripRows, into: pixels, at: 0)
                }
            }]
        }
        guard total <= wholeEncodingPixels else { throw UnavailableErrors.gpuEncodeOverLimit(.pixels, total, limit: wholeEncodingPixels) }
        let pixels = try encoder.pixelBuffer(bytes: 4 * total)
        var results = outputs.map { _ in Result<EncodedImageData, any Error>.failure(InternalErrors.noAnswer()) }
        var images: [GPUEncoder.Image] = [], drawn: [Int] = [], base = 0
        for (i, output) in outputs.enumerated() {
            do {
                let (drawer, stripRows) = try upload(output)
                try draw(drawer, 0..<output.size.height, stripRows: stripRows, into: pixels, at: 4 * base)
                images.append(GPUEncoder.Image(base: base, stride: output.size.width, size: output.size, opaque: output.opaque,
                                               repeats: output.repeats))
                drawn.append(i)
            } catch {
                results[i] = .failure(error)
            }
            trimTextureCache()
            base += output.size.width * output.size.height
        }
        for (i, result) in zip(drawn, try encoder.encode(images)) { results[i] = result }
        return results
    }
}

