import CEGL
import CPNG
import Shaders

/// The GPU's half of a PNG of glslice's own deflate (`default`, issue 43): from outputs'
/// drawn pixels, still on the GPU, each one's colour type and palette (at most 256
/// colours in an output of at most `PNGEncoder.maxIndexedPixels`, as the CPU's
/// encoder decides), its scanlines (`Shaders/scanlines.comp`) and their zlib
/// stream (`GPUDeflater`). Only the streams, per-row figures and the colours
/// come back; `PNGEncoder.finish(encoded:)` frames each file, the one the CPU
/// writes for the same pixels. One call takes many outputs (an atlas's) with
/// the passes and waits of one.
///
/// Not `Sendable`: its GL objects belong to the context's thread.
final class GPUEncoder {
    /// An output in the pixel buffer: at (`x0`, `y0`) of the pixels from `base`,
    /// rows `stride` pixels apart. `opaque`: write RGB (every alpha is 255).
    struct Image {
        var base = 0
        var x0 = 0
        var y0 = 0
        var stride: Int
        var size: PixelSize
        var opaque: Bool
        var repeats: RepeatMap
    }

    let context: GPUContext
    private let program: ComputeProgram
    private let buffers: ShaderBuffers
    private let deflater: GPUDeflater
    /// Where the buffers are charged (`.encoder`), and the shares they keep to.
    let memory: GPUMemory
    /// Scanline bytes deflated in one dispatch at most (whole pieces; the tokens take four times as
    /// much): `GPUMemory.encodingDispatchBytes`.
    var dispatchBytes: Int { deflater.dispatchBytes }
    /// Pixels (colours pass) or words (scanlines) an invocation of `scanlines.comp` takes.
    static let run = 32
    /// An image's colour table (`scanlines.comp`): slots, each a colour, its
    /// first pixel and its index, then the count and the overflow flag.
    static let slots = 1024
    private static let tableWords = 3 * slots + 2
    /// A colour no premultiplied pixel has (red over alpha), marking an empty slot.
    static let none: UInt32 = 0x00FF_FFFF

    private enum Slot: Int, CaseIterable { case pixels, colours, images, sums }

    init(context: GPUContext, memory: GPUMemory = GPUMemory()) throws {
        self.context = context
        self.memory = memory
        deflater = try GPUDeflater(context: context, dispatchBytes: memory.encodingDispatchBytes, memory: memory)
        program = try ComputeProgram(ShaderSource.scanlines, name: "scanlines.comp", uniforms: ["imageCount", "invocations", "mode"])
        buffers = try ShaderBuffers(count: Slot.allCases.count, memory: memory)
    }

    /// An encoder held to a `budget` of its own (tests).
    convenience init(context: GPUContext, budget: Int) throws {
        try self.init(context: context, memory: GPUMemory(budget: budget))
    }

    /// Gives back the storage of a call's buffers (pixels, colours, scanlines,
    /// tokens...) past 64 KiB each, as the framebuffer shrinks after a large draw:
    /// memory between calls stays small, and `/metrics` says what is held.
    func shrink() throws {
        try context.makeCurrent()
        try buffers.shrink()
        try deflater.shrink()
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

    /// The image data of one output in the pixel buffer.
    func encode(_ image: Image) throws -> EncodedImageData {
        try encode([image])[0].get()
    }

    /// Each output's image data, or why the GPU could not make it
    /// (`.unavailable`: llvmpipe's loop limit; read it back). Throws when a GL call fails, which loses them all.
    func encode(_ images: [Image]) throws -> [Result<EncodedImageData, any Error>] {
        guard !images.isEmpty else { return [] }
        try context.makeCurrent()
        let (palettes, tables) = try colours(images)
        let layouts = try scanlines(images, palettes: palettes, tables: tables)
        // Their deflate: jobs of whole pieces, many to a dispatch, up to `dispatchBytes` and the
        // passes' rows a dispatch (`GPUDeflater.deflate` cuts the calls).
        var jobs: [(image: Int, job: GPUDeflater.Job)] = []
        for (i, image) in images.enumerated() {
            let layout = layouts[i], height = image.size.height, coder = layout.coder
            let jobRows = dispatchRows(rowBytes: layout.rowBytes)
            (0..<height).eachStrip(of: jobRows) { range, last in
                jobs.append((i, GPUDeflater.Job(deflater: coder, firstRowByte: layout.start + range.lowerBound * layout.rowBytes,
                                                oldest: layout.start, firstRow: range.lowerBound, rows: range.count, endsImage: last,
                                                windowBits: SegmentedZlib.windowBits(totalBytes: layout.rowBytes * height))))
            }
        }
        let deflated = try deflater.deflate(jobs.map(\.job))
        // Each output's zlib stream: a header, its jobs' streams, its Adler-32.
        var zlib: [Result<[UInt8], any Error>] = images.indices.map { i in
            .success(SegmentedZlib.header(windowBits: SegmentedZlib.windowBits(totalBytes: layouts[i].rowBytes * images[i].size.height), flevel: 0))
        }
        var adler = [UInt](repeating: 1, count: images.count)
        for ((i, job), result) in zip(jobs, deflated) {
            guard case .success(var bytes) = zlib[i] else { continue }
            switch result {
            case .success(let deflated):
                bytes += deflated.stream
                adler[i] = adler32_combine(adler[i], UInt(deflated.adler), job.rows * layouts[i].rowBytes)
                zlib[i] = .success(bytes)
            case .failure(let error):
                zlib[i] = .failure(error)
            }
        }
        return images.indices.map { i in
            zlib[i].map { bytes in layouts[i].data(palette: palettes[i], zlib: bytes + Self.bigEndian(adler[i])) }
        }
    }

    /// The image data of an output too large for the pixel buffer whole, and
    /// too large for a palette (a giant): a strip of whole pieces at a time,
    /// `draw` reading the strip's rows into the pixel buffer (its GL name given),
    /// then its scanlines made after the last rows of the strip before (those
    /// its matches reach), then deflated. GPU memory stays at a strip's; the
    /// stream is held, up to `maxHeldBytes` (past that, `.unavailable`: the CPU encodes it).
    func encodeInStrips(size: PixelSize, opaque: Bool, repeats: RepeatMap,
                       draw: (_ rows: Range<Int>, _ pixels: GLuint) throws -> Void) throws -> EncodedImageData {
        let channels = opaque ? 3 : 4
        let (bitDepth, rowBytes) = ScanlineCompressor.layout(width: size.width, channels: channels, paletteEntries: 0)
        let coder = RepeatDeflater(map: repeats, width: size.width, rowBytes: rowBytes, bitsPerPixel: 8 * channels,
                                   filtersRows: RowFilter.filters(channels: channels, rowBytes: rowBytes), height: size.height)
        let stripRows = dispatchRows(rowBytes: rowBytes)
        // Whole rows covering a match's 32 KiB reach (a strip is at least a piece, 1 MiB, so it holds them).
        let historyRows = (RepeatDeflater.maxDistance + rowBytes - 1) / rowBytes
        var zlib = SegmentedZlib.header(windowBits: SegmentedZlib.windowBits(totalBytes: rowBytes * size.height), flevel: 0)
        var adler: UInt = 1, history: [UInt8] = []
        try (0..<size.height).eachStrip(of: stripRows) { range, last in
            let (first, rows) = (range.lowerBound, range.count), strip = PixelSize(width: size.width, height: rows)
            // A strip after the first is drawn with the row above it, which its first row is filtered against (`RowFilter`).
            let above = first > 0 ? 1 : 0
            try draw((first - above)..<(first + rows), try pixelBuffer(bytes: strip.width * (strip.height + above) * 4))
            try context.makeCurrent()
            let image = Image(y0: above, stride: size.width, size: strip, opaque: opaque, repeats: .none)
            let layout = try scanlines([image], palettes: [[]], tables: [0], history: history, rowAbove: above == 1,
                                       noneRows: { _, _ in coder.noneRows(first..<(first + rows)) })[0]
            let job = GPUDeflater.Job(deflater: coder, firstRowByte: layout.start, oldest: layout.start - history.count, firstRow: first,
                                      rows: rows, endsImage: last, windowBits: SegmentedZlib.windowBits(totalBytes: rowBytes * size.height))
            let deflated = try deflater.deflate([job])[0].get()
            zlib += deflated.stream
            guard zlib.count <= maxHeldBytes else { throw UnavailableErrors.gpuStreamOverLimit(bytes: maxHeldBytes) }
            adler = adler32_combine(adler, UInt(deflated.adler), rows * rowBytes)
            guard !last else { return }
            let kept = min(historyRows, rows)
            history = try deflater.readScanlines(from: layout.start + (rows - kept) * rowBytes, count: kept * rowBytes)
        }
        return EncodedImageData(channels: channels, bitDepth: bitDepth, palette: [], zlib: zlib + Self.bigEndian(adler))
    }

    /// Rows of `rowBytes` deflated in one dispatch (a job, or a giant's strip): whole
    /// pieces, as many as fit `dispatchBytes`, one at least.
    /// Within the passes' rows too, so a tall thin output is cut, never refused.
    private func dispatchRows(rowBytes: Int) -> Int {
        let perPiece = SegmentedZlib.Cuts.standard.rowsPerPiece(rowBytes: rowBytes)
        return perPiece * max(1, min(dispatchBytes / (perPiece * rowBytes), GPUDeflater.maxRowsPerDispatch / perPiece))
    }

    /// The image data `encodeInStrips` holds at most (in CPU memory): a quarter of the GPU budget.
    var maxHeldBytes: Int { max(4 << 20, memory.budget / 4) }

    private static func bigEndian(_ adler: UInt) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) } }

    /// An output's scanlines: their shape, where they start in the deflater's buffer, and their deflater.
    private struct Layout {
        var channels: Int
        var bitDepth: Int
        var rowBytes: Int
        var start: Int
        /// Its deflater, made once: the scanline pass's `noneRows` are kept there for its jobs' copies (`RepeatDeflater.NoneKept`).
        var coder: RepeatDeflater

        func data(palette: [UInt8], zlib: [UInt8]) -> EncodedImageData {
            EncodedImageData(channels: channels, bitDepth: bitDepth, palette: palette, zlib: zlib)
        }
    }

    /// The colours pass: each output that may be a palette (at most
    /// `PNGEncoder.maxIndexedPixels`) gets a table; those with at most 256
    /// colours get their palette, in `Palette`'s first-seen order, and their
    /// table's indices. Returns the palettes (empty: none) and where each table starts.
    private func colours(_ images: [Image]) throws -> (palettes: [[UInt8]], tables: [Int]) {
        var shapes = [UInt32](repeating: 0, count: images.count * ShaderRecords.Image.words)
        var tables: [UInt32] = [], starts: [Int] = [], runs = 0
        tables.reserveCapacity(images.count * Self.tableWords)
        for (i, image) in images.enumerated() {
            let (width, height) = (image.size.width, image.size.height)
            Self.record(image, i, into: &shapes, [(.table, tables.count), (.colourRuns, runs)])
            starts.append(tables.count)
            if width * height <= PNGEncoder.maxIndexedPixels {
                // Colours, first pixels, indices, the count and the overflow.
                tables.append(contentsOf: repeatElement(Self.none, count: Self.slots))
                tables.append(contentsOf: repeatElement(.max, count: Self.slots))
                tables.append(contentsOf: repeatElement(0, count: Self.slots + 2))
                runs += height * ((width + Self.run - 1) / Self.run)
            }
        }
        var palettes = [[UInt8]](repeating: [], count: images.count)
        guard runs > 0 else { return (palettes, starts) }
        try tables.withUnsafeBytes { try buffers.upload(Slot.colours.rawValue, $0) }
        try shapes.withUnsafeBytes { try buffers.upload(Slot.images.rawValue, $0) }
        try bindAll()
        try program.use()
        try program.set(["imageCount": images.count, "invocations": runs, "mode": 0])
        try program.dispatch(groups: (runs + 63) / 64)
        let seen = try buffers.read(Slot.colours.rawValue, words: tables.count)
        var used: [UInt64] = []
        used.reserveCapacity(256)
        for (i, image) in images.enumerated() where image.size.width * image.size.height <= PNGEncoder.maxIndexedPixels {
            let table = starts[i], count = Int(seen[table + 3 * Self.slots])
            guard count <= 256 && seen[table + 3 * Self.slots + 1] == 0 else { continue }
            // The used slots in the order their colours were first seen: one integer key each (first pixel, slot).
            used.removeAll(keepingCapacity: true)
            for slot in 0..<Self.slots where seen[table + slot] != Self.none { used.append(UInt64(seen[table + Self.slots + slot]) << 16 | UInt64(slot)) }
            used.sort()
            palettes[i].reserveCapacity(4 * used.count)
            for (index, key) in used.enumerated() {
                let slot = Int(key & 0xFFFF), colour = seen[table + slot], alpha = UInt8(colour >> 24)
                tables[table + slot] = colour
                tables[table + 2 * Self.slots + slot] = UInt32(index)
                for shift: UInt32 in [0, 8, 16] { palettes[i].append(Premultiply.unpremultiply(UInt8(truncatingIfNeeded: colour >> shift), alpha: alpha)) }
                palettes[i].append(alpha)
            }
        }
        if palettes.contains(where: { !$0.isEmpty }) { try tables.withUnsafeBytes { try buffers.upload(Slot.colours.rawValue, $0) } }
        return (palettes, starts)
    }

    /// The scanlines pass: each output's scanlines, from a word of its own, into
    /// the deflater's buffer, after `history` (bytes ending where the first output's begin),
    /// each row filtered None or Up (`RowFilter`). `rowAbove`: the one image has the row above
    /// its first drawn before it (a giant's strip after the first).
    /// `noneRows`: per image and its row bytes, which rows are None whatever their bytes (`RepeatMap.noneRows`), where
    /// filtered; by default its whole map's (a giant's strip is told its rows').
    private func scanlines(_ images: [Image], palettes: [[UInt8]], tables: [Int], history: [UInt8] = [], rowAbove: Bool = false,
                           noneRows: ((Image, Int) -> [Bool])? = nil) throws -> [Layout] {
        var shapes = [UInt32](repeating: 0, count: images.count * ShaderRecords.Image.words)
        var layouts: [Layout] = [], words = (history.count + 3) / 4
        // Invocations per mode: 1, each filtered row's two sums; 2, the scanlines, filtered as the sums say.
        var rowRuns = 0, scanlineRuns = 0, sums: [UInt32] = []
        for (i, image) in images.enumerated() {
            let channels = palettes[i].isEmpty ? (image.opaque ? 3 : 4) : 1
            let (bitDepth, rowBytes) = ScanlineCompressor.layout(width: image.size.width, channels: channels, paletteEntries: palettes[i].count / 4)
            let imageWords = (rowBytes * image.size.height + 3) / 4, filters = RowFilter.filters(channels: channels, rowBytes: rowBytes)
            Self.record(image, i, into: &shapes, [(.table, tables[i]), (.channels, channels), (.bitDepth, bitDepth), (.rowBytes, rowBytes),
                                                  (.scanlineWords, imageWords), (.firstWord, words), (.sums, sums.count), (.rowRuns, rowRuns),
                                                  (.scanlineRuns, scanlineRuns), (.rowAbove, rowAbove ? 1 : 0), (.filters, filters ? 1 : 0)])
            layouts.append(Layout(channels: channels, bitDepth: bitDepth, rowBytes: rowBytes, start: 4 * words,
                                  coder: RepeatDeflater(map: image.repeats, width: image.size.width, rowBytes: rowBytes,
                                                        bitsPerPixel: channels == 1 ? bitDepth : 8 * channels, filtersRows: filters,
                                                        height: image.size.height)))
            words += imageWords
            if filters {
                // A row written None whatever its bytes starts its sum as it is at `noneRow`, a bit no sum reaches.
                guard rowBytes < ShaderRecords.noneRow / 256 else {
                    throw UnavailableErrors.gpuEncodeOverLimit(.rowBytes, rowBytes, limit: Int(ShaderRecords.noneRow / 256) - 1)
                }
                let none = noneRows?(image, rowBytes) ?? layouts[i].coder.noneRows(0..<image.size.height)
                for asIs in none { sums += [asIs ? ShaderRecords.noneRow : 0, 0] }
                rowRuns += image.size.height * ((rowBytes - 1 + 4 * Self.run - 1) / (4 * Self.run))
            }
            scanlineRuns += (imageWords + Self.run - 1) / Self.run
        }
        try shapes.withUnsafeBytes { try buffers.upload(Slot.images.rawValue, $0) }
        try sums.withUnsafeBytes { try buffers.upload(Slot.sums.rawValue, $0) }
        try deflater.bindScanlines(bytes: 4 * words, to: 2)
        try deflater.writeScanlines(history, at: 4 * ((history.count + 3) / 4) - history.count)
        try bindAll()
        try program.use()
        for (mode, invocations) in [(1, rowRuns), (2, scanlineRuns)] where invocations > 0 {
            try program.set(["imageCount": images.count, "invocations": invocations, "mode": mode])
            try program.dispatch(groups: (invocations + 63) / 64)
        }
        return layouts
    }

    /// Writes image `i`'s `ShaderRecords.Image` record: its shape and place, and a pass's own `fields` (the rest stay 0).
    private static func record(_ image: Image, _ i: Int, into shapes: inout [UInt32], _ fields: [(ShaderRecords.Image, Int)]) {
        let place: [(ShaderRecords.Image, Int)] = [(.width, image.size.width), (.height, image.size.height), (.x0, image.x0), (.y0, image.y0),
                                                   (.stride, image.stride), (.base, image.base)]
        for (field, value) in place + fields { shapes[field.at(i)] = UInt32(value) }
    }

    /// Binds the pixels, colours, images and sums at 0, 1, 3 and 4 (the scanlines are the deflater's, at 2).
    private func bindAll() throws {
        for (slot, binding) in [(Slot.pixels, 0), (.colours, 1), (.images, 3), (.sums, 4)] { try buffers.bind(slot.rawValue, to: binding) }
    }
}
