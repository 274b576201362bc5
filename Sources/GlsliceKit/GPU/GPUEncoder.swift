import CEGL
import CPNG
import Shaders

/// The GPU's half of a `--compression fast` PNG (issue 43): from an output's
/// drawn pixels, still on the GPU, its colour type and palette (at most 256
/// colours in an output of at most `PNGEncoder.maxIndexedPixels`, as the CPU's
/// encoder decides), its scanlines (`Shaders/scanlines.comp`) and their zlib
/// stream (`GPUDeflater`). Only the stream, per-row figures and the colours
/// come back; `PNGEncoder.finish(encoded:)` frames the file, the one the CPU
/// writes for the same pixels.
///
/// Not `Sendable`: its GL objects belong to the context's thread.
final class GPUEncoder {
    let context: GPUContext
    private let program: ComputeProgram
    private let buffers: ShaderBuffers
    private let deflater: GPUDeflater
    /// Scanline bytes deflated in one dispatch at most (whole pieces; the tokens take four times as
    /// much): a sixteenth of the GPU budget, so pixels (a quarter at most, `GPUSession.encodes`),
    /// scanlines and tokens stay within three quarters of it.
    let bandBytes: Int
    /// Pixels (colours pass) or words (scanlines) an invocation of `scanlines.comp` takes.
    private static let run = 32
    /// The colour table's slots (`scanlines.comp`).
    private static let slots = 4096
    /// A colour no premultiplied pixel has (red over alpha), marking an empty slot.
    private static let none: UInt32 = 0x00FF_FFFF

    private enum Slot: Int, CaseIterable { case pixels, colours }

    init(context: GPUContext, budget: Int = GPUMemory.defaultBudget) throws {
        self.context = context
        bandBytes = max(1 << 20, budget / 16)
        deflater = try GPUDeflater(context: context)
        program = try ComputeProgram(ShaderSource.scanlines, name: "scanlines.comp",
                                     uniforms: ["width", "height", "x0", "y0", "stride", "mode", "channels", "bitDepth", "rowBytes", "words"])
        buffers = try ShaderBuffers(count: Slot.allCases.count)
    }

    /// The buffer drawn pixels are read into, made `bytes` long: its GL name, for `glReadPixels` into a pack buffer.
    func pixelBuffer(bytes: Int) throws -> GLuint {
        try context.makeCurrent()
        try buffers.reserve(Slot.pixels.rawValue, words: (bytes + 3) / 4)
        return buffers.name(Slot.pixels.rawValue)
    }

    /// Makes the pixel buffer hold `pixels`, premultiplied RGBA8 (uploaded: for tests).
    func setPixels(_ pixels: UnsafeRawBufferPointer) throws {
        try context.makeCurrent()
        try buffers.upload(Slot.pixels.rawValue, pixels)
    }

    /// The image data of the output of `size` at (`x0`, `y0`) of the pixel
    /// buffer, whose rows are `stride` pixels apart. `opaque`: write RGB (every alpha is 255).
    func encode(x0: Int, y0: Int, stride: Int, size: PixelSize, opaque: Bool, repeats: RepeatMap) throws -> EncodedImageData {
        try context.makeCurrent()
        let (width, height) = (size.width, size.height)
        var region = ["width": width, "height": height, "x0": x0, "y0": y0, "stride": stride]
        for (binding, slot) in Slot.allCases.enumerated() { try buffers.bind(slot.rawValue, to: binding) }
        try program.use()
        // Colours, while they may be a palette.
        var table = [UInt32](repeating: Self.none, count: Self.slots) + [UInt32](repeating: .max, count: Self.slots)
            + [UInt32](repeating: 0, count: Self.slots + 2)
        var palette: [UInt8] = []
        if width * height <= PNGEncoder.maxIndexedPixels {
            try table.withUnsafeBytes { try buffers.upload(Slot.colours.rawValue, $0) }
            region["mode"] = 0
            try program.set(region)
            try program.dispatch(groups: (height * ((width + Self.run - 1) / Self.run) + 63) / 64)
            let seen = try buffers.read(Slot.colours.rawValue, words: table.count)
            if seen[3 * Self.slots] <= 256 && seen[3 * Self.slots + 1] == 0 {
                let used = (0..<Self.slots).filter { seen[$0] != Self.none }.sorted { seen[Self.slots + $0] < seen[Self.slots + $1] }
                for (index, slot) in used.enumerated() {
                    table[slot] = seen[slot]
                    table[2 * Self.slots + slot] = UInt32(index)
                    let colour = seen[slot], alpha = UInt8(colour >> 24)
                    palette += [0, 8, 16].map { Premultiply.unpremultiply(UInt8(truncatingIfNeeded: colour >> $0), alpha: alpha) } + [alpha]
                }
                try table.withUnsafeBytes { try buffers.upload(Slot.colours.rawValue, $0) }
            }
        }
        let channels = palette.isEmpty ? (opaque ? 3 : 4) : 1
        let (bitDepth, rowBytes) = ScanlineCompressor.layout(width: width, channels: channels, paletteEntries: palette.count / 4)
        let total = rowBytes * height, words = (total + 3) / 4
        // Scanlines, straight into the deflater's buffer.
        try deflater.bindScanlines(bytes: total, to: 2)
        try program.use()
        region.merge(["mode": 1, "channels": channels, "bitDepth": bitDepth, "rowBytes": rowBytes, "words": words]) { $1 }
        try program.set(region)
        try program.dispatch(groups: ((words + Self.run - 1) / Self.run + 63) / 64)
        // Their deflate, a band of whole pieces at a time.
        let coder = RepeatDeflater(map: repeats, width: width, rowBytes: rowBytes, bitsPerPixel: channels == 1 ? bitDepth : 8 * channels)
        // Bands of whole pieces, as many as make `bandBytes`.
        let perPiece = SegmentedZlib.Cuts.standard.rowsPerPiece(rowBytes: rowBytes)
        let bandRows = perPiece * max(1, (bandBytes + perPiece * rowBytes - 1) / (perPiece * rowBytes))
        var zlib = SegmentedZlib.header(windowBits: SegmentedZlib.windowBits(totalBytes: total), flevel: 0)
        var adler: UInt = 1
        var first = 0
        while first < height {
            let rows = min(bandRows, height - first)
            let band = try deflater.deflate(coder, firstRowByte: first * rowBytes, firstRow: first, rows: rows, endsImage: first + rows == height)
            zlib += band.stream
            adler = adler32_combine(adler, UInt(band.adler), rows * rowBytes)
            first += rows
        }
        zlib += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
        return EncodedImageData(channels: channels, bitDepth: bitDepth, palette: palette, zlib: zlib)
    }
}

extension GPUEncoder {
    /// Encodes three small images (RGBA, RGB, a palette; copied rows,
    /// periodic columns, runs and noise) here and on the CPU, and throws unless
    /// the files are the same: a driver that compiles the passes but runs them
    /// differently is caught before it writes a file (`GPUSession.encoder`).
    func selfCheck() throws {
        let size = PixelSize(width: 61, height: 37)
        let map = RepeatMap(rowKeys: { rows in rows.map { RepeatMap.RowKey(high: UInt64($0 % 9 == 8 ? 0 : $0 + 1), low: 0) } },
                            columnPeriods: [(destination: 20..<61, period: 7)])
        for variant in 0..<3 {
            var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    // Row 8, 17, 26, 35 copy row 0's pixels; past x 20 the columns repeat every 7.
                    let sx = x >= 20 ? 20 + (x - 20) % 7 : x, sy = y % 9 == 8 ? 0 : y
                    let seed = UInt32(truncatingIfNeeded: (sx * 31 + sy + variant * 1000) &* 2_654_435_761) ^ 0x9E37
                    let alpha: UInt8 = variant == 0 ? UInt8(truncatingIfNeeded: seed >> 24) | 1 : 255
                    var rgb = [UInt8(truncatingIfNeeded: seed), UInt8(truncatingIfNeeded: seed >> 8), UInt8(truncatingIfNeeded: seed >> 16)]
                    if variant == 2 { rgb = [rgb[0] & 0xC0, rgb[1] & 0xC0, 0] } // a palette of at most 20 colours
                    if x / 5 % 2 == 0 { rgb = [rgb[0], rgb[0], rgb[0]] } // runs a byte apart
                    let at = (y * size.width + x) * 4
                    for c in 0..<3 { pixels[at + c] = Premultiply.premultiply(rgb[c], alpha: alpha) }
                    pixels[at + 3] = alpha
                }
            }
            let opaque = variant != 0
            let cpu = try PNGEncoder(target: .memory, size: size, opaque: opaque, compression: .fast, repeats: map, threads: 1)
            try pixels.withUnsafeBufferPointer { rows in
                if let base = rows.baseAddress { try cpu.write(premultipliedRows: base, count: size.height) }
            }
            try cpu.finish()
            try pixels.withUnsafeBytes { try setPixels($0) }
            let gpu = try PNGEncoder(target: .memory, size: size, opaque: opaque, compression: .fast)
            try gpu.finish(encoded: try encode(x0: 0, y0: 0, stride: size.width, size: size, opaque: opaque, repeats: map))
            guard gpu.memoryData == cpu.memoryData else { throw UnavailableErrors.gpuEncodingDisagrees(context.renderer) }
        }
    }
}

extension GPUContext {
    /// Whether this context can encode `fast` PNGs (its compute programs compile,
    /// link and write the CPU's files for three small images), for `doctor`:
    /// nil when it can, else why not.
    package func gpuEncodingProblem() -> String? {
        do {
            try GPUEncoder(context: self).selfCheck()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
