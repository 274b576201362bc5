extension GPUEncoder {
    /// Encodes three small images (RGBA, RGB, a palette; copied rows,
    /// periodic columns, runs and noise) here and on the CPU, and throws unless
    /// the files are the same: a driver that compiles the passes but runs them
    /// differently is caught before it writes a file (`GPUSession.encoder`).
    /// Returns the GPU's seconds for them over the CPU's: the hybrid's first
    /// guess at the GPU's speed (`HybridCallSizer.gpuPrior`), before it has timed a call.
    @discardableResult
    func selfCheck() throws -> Double {
        let size = PixelSize(width: 61, height: 37), variants = 3
        let map = RepeatMap(rowKeys: { rows in rows.map { RepeatMap.RowKey(high: UInt64($0 % 9 == 8 ? 0 : $0 + 1), low: 0) } },
                            columnPeriods: [(destination: 20..<61, period: 7)])
        // The three side by side in the pixel buffer, encoded in one call; each alone on the CPU.
        var all = [UInt8](repeating: 0, count: variants * size.width * size.height * 4)
        var expected: [[UInt8]?] = []
        var cpu = Duration.zero
        for variant in 0..<variants {
            var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    // Row 8, 17, 26, 35 copy row 0's pixels; past x 20 the columns repeat every 7.
                    let sx = x >= 20 ? 20 + (x - 20) % 7 : x, sy = y % 9 == 8 ? 0 : y
                    let seed = UInt32(truncatingIfNeeded: (sx * 31 + sy + variant * 1000) &* 2_654_435_761) ^ 0x9E37
                    let alpha: UInt8 = variant == 0 ? UInt8(truncatingIfNeeded: seed >> 24) | 1 : 255
                    var rgb = [UInt8(truncatingIfNeeded: seed), UInt8(truncatingIfNeeded: seed >> 8), UInt8(truncatingIfNeeded: seed >> 16)]
                    if variant == 2 { rgb = [rgb[0] & 0xC0, rgb[1] & 0xC0, 0] } // a palette of at most 20 colours
                    if sx / 5 % 2 == 0 { rgb = [rgb[0], rgb[0], rgb[0]] } // runs a byte apart (of the tiled x: the map's period holds)
                    let at = (y * size.width + x) * 4, to = ((y * variants + variant) * size.width + x) * 4
                    for c in 0..<3 { pixels[at + c] = Premultiply.premultiply(rgb[c], alpha: alpha) }
                    pixels[at + 3] = alpha
                    all.replaceSubrange(to..<(to + 4), with: pixels[at..<(at + 4)])
                }
            }
            // Variant 0 has alpha under 255, so its file is RGBA; the others are RGB.
            let image = PremultipliedImage(RGBAImage(width: size.width, height: size.height, pixels: pixels))
            let start = ContinuousClock.now
            expected.append(try PNGEncoder.memoryFile(image, compression: .fast, repeats: map))
            cpu += ContinuousClock.now - start
        }
        let start = ContinuousClock.now
        try all.withUnsafeBytes { try setPixels($0) }
        let images = (0..<variants).map { Image(x0: $0 * size.width, stride: variants * size.width, size: size, opaque: $0 != 0, repeats: map) }
        let results = try encode(images)
        let gpu = ContinuousClock.now - start
        for (variant, encoded) in results.enumerated() {
            let file = try PNGEncoder(target: .memory, size: size, opaque: variant != 0, compression: .fast)
            try file.finish(encoded: try encoded.get())
            guard file.memoryData == expected[variant] else { throw UnavailableErrors.gpuEncodingDisagrees(context.renderer) }
        }
        return gpu / cpu
    }
}

extension GPUContext {
    /// Whether a session on this context encodes glslice's deflate PNGs with compute passes
    /// (when they work here): `forced` (`GLSLICE_GPU_ENCODE`) when set, else on hardware GPUs
    /// only. The one decision: `GPUSession.init` applies it, and `doctor` reports it.
    func encodesOnGPU(forced: Bool?) -> Bool { forced ?? !isSoftware }

    /// Whether this context can encode `fast` PNGs (its compute programs compile,
    /// link and write the CPU's files for three small images), for `doctor`:
    /// nil when it can, else why not.
    func gpuEncodingProblem() -> String? {
        do {
            try GPUEncoder(context: self).selfCheck()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
