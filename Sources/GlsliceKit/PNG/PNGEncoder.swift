import Foundation

/// Streams premultiplied rows into a PNG, unpremultiplying on the way.
///
/// An image of at most `maxIndexedPixels` is held as palette indices while it
/// has at most 256 colours and written indexed at `finish()`; a 257th colour
/// (or a larger image) streams RGB or RGBA rows instead, the held rows first.
/// Files appear only complete (see `OutputFile`), named on `finish()`; an
/// unfinished writer leaves nothing behind.
package final class PNGEncoder: StripSink {
    /// 8 MiB of indices at most: larger outputs stream at one strip of memory.
    static let maxIndexedPixels = 1 << 23
    /// Read once: Foundation reads the cgroup files on every call, four
    /// system calls a job in a batch.
    private static let cores = ProcessInfo.processInfo.activeProcessorCount

    private var writer: ScanlineCompressor?
    private var stream: PNGStream?
    private let threads: Int
    private let cuts: SegmentedZlib.Cuts
    private let target: OutputTarget
    /// The file being written (nil for stdout).
    private var file: OutputFile?
    /// Asked just before the file is named (`OutputFile.mayName`).
    var mayName: (() -> Bool)?
    /// Told the file's byte count and time just before it is named (`OutputFile.willName`).
    var willName: ((_ bytes: Int, _ modified: Int, _ folder: Int32) -> Void)?
    /// Where bytes go when not to a file.
    private var descriptor: Int32 = -1
    /// True for the duplicate of stdout, which this writer closes.
    private var ownsDescriptor = false
    private let width: Int
    private let opaque: Bool
    private let compression: Compression
    private let repeats: RepeatMap
    private let text: (key: String, value: String)?
    /// Set while the image is collected as indices.
    private var palette: Palette?
    private var indices: [UInt8] = []
    private(set) var rowsWritten = 0
    package let size: PixelSize
    /// The PNG collects in memory rather than in a file.
    private let inMemory: Bool
    /// The finished PNG, for a writer whose target is `.memory`.
    package private(set) var memoryData: [UInt8]?
    /// Time spent opening, writing and naming the file (the rest of a writer's time is encoding).
    var fileTime: StageTime { openAndNameTime + (stream?.writeTime ?? .zero) }
    private var openAndNameTime = StageTime.zero
    /// CPU time of the threads that helped compress it (`SegmentedZlib.helperCPU`), once finished.
    package private(set) var helperCPU = Duration.zero

    /// - Parameters:
    ///   - opaque: write RGB (the caller knows every alpha is 255).
    ///   - repeats: what repeats in the image, known from its plan (glslice's own deflate, the default, writes those
    ///     repeats without searching for them; the other levels ignore it).
    ///   - text: an optional tEXt chunk (key, value), such as a batch job's digest.
    ///   - threads: how many pieces of a large image's data compress at once
    ///     (the bytes are the same for any count); nil: one per core.
    package init(target: OutputTarget, size: PixelSize, opaque: Bool, compression: Compression,
                repeats: RepeatMap = .none, text: (key: String, value: String)? = nil, threads: Int? = nil, cuts: SegmentedZlib.Cuts = .standard) throws {
        self.threads = threads ?? PNGEncoder.cores
        self.cuts = cuts
        self.target = target
        self.size = size
        self.width = size.width
        self.opaque = opaque
        self.compression = compression
        self.repeats = repeats
        self.text = text
        inMemory = target == .memory
        switch target {
        case .memory:
            break
        case .standardOutput:
            descriptor = dup(STDOUT_FILENO)
            guard descriptor >= 0 else { throw FileErrors.cannotWrite("<stdout>", systemError()) }
            ownsDescriptor = true
        case .descriptor(let fd):
            descriptor = fd
        case .file(let path, let durable):
            let start = StageClock.now
            file = try OutputFile(path: path, durable: durable)
            openAndNameTime += StageClock.now - start
        case .contained(let path, let scope, let durable):
            let start = StageClock.now
            file = try OutputFile(path, beneath: scope, durable: durable)
            openAndNameTime += StageClock.now - start
        }
        try startImage()
    }

    /// Collects indices while the image may be indexed, else opens the encoder.
    private func startImage() throws {
        if size.width * size.height <= PNGEncoder.maxIndexedPixels {
            palette = Palette() // the index plane is made with the first rows (a GPU-encoded file has none)
        } else {
            try open(channels: opaque ? 3 : 4)
        }
    }

    private var displayName: String { target.displayName }

    deinit {
        if ownsDescriptor { close(descriptor) }
        file?.discard()
    }

    /// Starts the file: 1 channel (with `palette`), 3 or 4.
    private func open(channels: Int, palette: [UInt8] = []) throws {
        let stream = PNGStream(descriptor: inMemory ? nil : file?.descriptor ?? descriptor, name: displayName)
        self.stream = stream
        do {
            writer = try ScanlineCompressor(stream: stream, width: size.width, height: size.height, channels: channels,
                                         palette: palette, compression: compression, repeats: repeats, threads: threads, cuts: cuts, text: text)
        } catch {
            file?.discard()
            throw error
        }
    }

    /// Appends `count` packed rows of premultiplied RGBA8, unpremultiplying
    /// one row at a time so memory stays at one row beyond the caller's strip.
    package func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int) throws {
        try write(premultipliedRows: rows, count: count, rowStride: width * 4)
    }

    /// Appends `count` rows that start `rowStride` bytes apart (a rectangle of a
    /// larger buffer, such as one output in a GPU atlas).
    package func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) throws {
        guard writer != nil || palette != nil else {
            throw InternalErrors.writeAfterFinish(displayName)
        }
        guard rowsWritten + count <= size.height else {
            throw InternalErrors.tooManyRows(displayName, height: size.height)
        }
        var done = 0
        if palette != nil { done = collect(rows, count: count, rowStride: rowStride) }
        if done < count {
            if palette != nil { try streamCollectedRows(rowsWritten + done) }
            try stream(rows + done * rowStride, count: count - done, rowStride: rowStride)
        }
        rowsWritten += count
    }

    /// Indexes rows while the palette holds; returns how many it took.
    private func collect(_ rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) -> Int {
        guard var palette else { return 0 }
        self.palette = nil // keeps the palette uniquely referenced while it grows
        defer { self.palette = palette }
        let width = self.width, first = rowsWritten
        if indices.isEmpty { indices = [UInt8](repeating: 0, count: width * size.height) }
        let parts = indexParts, copies = repeats.keptCopies
        return indices.withUnsafeMutableBufferPointer { indices in
            guard let plane = indices.baseAddress else { return 0 }
            for row in 0..<count {
                let pixels = rows + row * rowStride, out = plane + (first + row) * width
                // Stretched and tiled art repeats whole rows: copy their indices, from the row the plan
                // says is equal (a tile's a period up) where it says, else from the row above if equal.
                if let copies, case let copy = Int(copies[first + row]), copy >= 0 {
                    out.update(from: plane + copy * width, count: width)
                    continue
                }
                if row > 0, memcmp(pixels - rowStride, pixels, width * 4) == 0 {
                    out.update(from: out - width, count: width)
                    continue
                }
                for part in parts {
                    if part.period > 0, memcmp(pixels + 4 * part.range.lowerBound, pixels + 4 * (part.range.lowerBound - part.period),
                                               4 * part.range.count) == 0 {
                        // A tiled span past its first period: each pixel is the one a period to its left
                        // (checked: a compare costs less than a lookup a pixel), so indices are copied
                        // from whole periods back, in chunks that double.
                        var x = part.range.lowerBound, chunk = part.period
                        while x < part.range.upperBound {
                            let n = min(chunk, part.range.upperBound - x)
                            (out + x).update(from: out + (x - chunk), count: n)
                            x += n
                            chunk *= 2
                        }
                    } else if !palette.index(premultipliedRow: pixels + 4 * part.range.lowerBound, width: part.range.count,
                                             into: out + part.range.lowerBound) {
                        return row
                    }
                }
            }
            return count
        }
    }

    /// A row's pixels in parts, left to right: ranges to look up in the palette (period 0), and
    /// ranges whose pixels repeat `period` to their left (the plan's column periods, `RepeatMap`),
    /// whose indices are copied: a tiled row's colours are looked up once a period.
    private lazy var indexParts: [(range: Range<Int>, period: Int)] = {
        var parts: [(range: Range<Int>, period: Int)] = [], x = 0
        for (span, period) in repeats.columnPeriods where period < span.count && span.lowerBound >= x && span.upperBound <= width {
            let copied = (span.lowerBound + period)..<span.upperBound
            if x < copied.lowerBound { parts.append((x..<copied.lowerBound, 0)) }
            parts.append((copied, period))
            x = copied.upperBound
        }
        if x < width { parts.append((x..<width, 0)) }
        return parts
    }()

    /// A 257th colour: writes the rows held so far as RGB or RGBA, and streams from here on.
    private func streamCollectedRows(_ held: Int) throws {
        guard let palette else { return }
        self.palette = nil
        try open(channels: opaque ? 3 : 4)
        let plane = indices
        indices = []
        var rowBuffer = [UInt8](repeating: 0, count: width * 4) // palette entries are straight RGBA already
        try plane.withUnsafeBufferPointer { plane in
            guard let base = plane.baseAddress else { return }
            for row in 0..<held {
                try rowBuffer.withUnsafeMutableBufferPointer { straight in
                    guard let out = straight.baseAddress else { return }
                    palette.expand(base + row * width, width: width, into: out)
                    try writeStraight(UnsafePointer(out), count: 1, stride: width * 4)
                }
            }
        }
    }

    /// Straight into the encoder's buffer, unpremultiplied there unless every pixel is opaque
    /// (alpha 255: premultiplied and straight values are the same bytes).
    private func stream(_ rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) throws {
        try openEncoder().write(rows, count: count, stride: rowStride, unpremultiplying: !opaque)
    }

    private func writeStraight(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int) throws {
        try openEncoder().write(rows, count: count, stride: stride)
    }

    /// The encoder rows go to; a bug when none is open.
    private func openEncoder() throws -> ScanlineCompressor {
        guard let writer else { throw InternalErrors.noEncoderOpen(displayName) }
        return writer
    }

    /// Completes the file from image data made elsewhere (the GPU), in place of
    /// rows, and gives it its name. Returns the bytes written.
    @discardableResult
    func finish(encoded: EncodedImageData) throws -> Int {
        guard (writer != nil || palette != nil) && rowsWritten == 0 else { throw InternalErrors.finishedTwice(displayName) }
        palette = nil
        indices = []
        writer = nil
        let stream = PNGStream(descriptor: inMemory ? nil : file?.descriptor ?? descriptor, name: displayName)
        self.stream = stream
        try stream.writeHead(width: size.width, height: size.height, bitDepth: encoded.bitDepth,
                             colour: encoded.channels == 1 ? .palette : encoded.channels == 3 ? .rgb : .rgba,
                             palette: encoded.palette, text: text)
        try stream.imageData(encoded.zlib)
        try stream.finish()
        try name()
        return stream.count
    }

    /// Completes the file and gives it its name. Returns the bytes written.
    @discardableResult
    package func finish() throws -> Int {
        guard writer != nil || palette != nil else {
            throw InternalErrors.finishedTwice(displayName)
        }
        guard rowsWritten == size.height else {
            throw InternalErrors.rowsMissing(displayName, written: rowsWritten, height: size.height)
        }
        if let palette {
            self.palette = nil
            if palette.count == 0 { // no pixels at all: nothing to index
                try open(channels: opaque ? 3 : 4)
            } else if compression == .small, case let grey = GreyReduction(palette: palette.rgbaBytes), grey != nil || triesRGB(palette) {
                return try finishSmaller(palette, grey: grey)
            } else {
                try open(channels: 1, palette: palette.rgbaBytes)
                let plane = indices
                indices = []
                try plane.withUnsafeBufferPointer { plane in
                    guard let base = plane.baseAddress else { return }
                    try writeStraight(base, count: size.height, stride: width)
                }
            }
        }
        let writer = try openEncoder()
        self.writer = nil
        let bytes = try writer.finish()
        helperCPU = writer.helperCPU
        try name()
        return Int(bytes)
    }

    /// Keeps the finished PNG (in memory) and names the file.
    private func name() throws {
        if inMemory { memoryData = stream?.memory }
        let start = StageClock.now
        file?.mayName = mayName
        file?.willName = willName
        try file?.commit()
        openAndNameTime += StageClock.now - start
    }

    /// `small` on an indexed image that may be smaller in another colour type (issue 71), as
    /// zopflipng weighs them: grey or grey and alpha where every colour is grey (`GreyReduction`:
    /// no PLTE or tRNS), RGB where it is opaque with more than 16 colours and at most `rgbTrialPixels`
    /// a colour (its PLTE, up to 768 bytes, can outweigh a small output's data). Each file is made in
    /// memory, each by all of `small`'s tries (`SmallFilters`' alone lost most of the gain); the
    /// smallest is written.
    private func finishSmaller(_ palette: Palette, grey: GreyReduction?) throws -> Int {
        let plane = indices
        indices = []
        var best = try madeInMemory(plane, channels: 1, palette: palette.rgbaBytes, greyDepth: nil)
        func weigh(_ file: [UInt8]) { if file.count < best.count { best = file } }
        if let grey {
            weigh(try madeInMemory(grey.rows(plane), channels: grey.channels, palette: [], greyDepth: grey.channels == 1 ? grey.depth : nil))
        }
        if triesRGB(palette) {
            var rgba = [UInt8](repeating: 0, count: plane.count * 4)
            rgba.withUnsafeMutableBufferPointer { rgba in
                plane.withUnsafeBufferPointer { plane in
                    guard let out = rgba.baseAddress, let indices = plane.baseAddress else { return }
                    palette.expand(indices, width: plane.count, into: out)
                }
            }
            weigh(try madeInMemory(rgba, channels: 3, palette: [], greyDepth: nil, bytesPerPixel: 4)) // alpha dropped as rows are written
        }
        let stream = PNGStream(descriptor: inMemory ? nil : file?.descriptor ?? descriptor, name: displayName)
        self.stream = stream
        try stream.copy(best)
        try name()
        return stream.count
    }

    /// Pixels a colour at most where `small` tries an opaque palette as RGB: of the bench manifest's
    /// 338 opaque 8-bit palettes, zopflipng wrote 96 as RGB, 95 of them at most 800 pixels a colour
    /// (205 palettes are), the median of the others 967.
    static let rgbTrialPixels = 800

    private func triesRGB(_ palette: Palette) -> Bool {
        opaque && palette.count > 16 && size.width * size.height <= Self.rgbTrialPixels * palette.count
    }

    /// The whole PNG of `rows` (`bytesPerPixel` bytes a pixel, `channels` of them written) in
    /// memory, with its palette or grey depth.
    private func madeInMemory(_ rows: [UInt8], channels: Int, palette: [UInt8], greyDepth: Int?, bytesPerPixel: Int? = nil) throws -> [UInt8] {
        let stream = PNGStream(descriptor: nil, name: displayName)
        let writer = try ScanlineCompressor(stream: stream, width: size.width, height: size.height, channels: channels, palette: palette,
                                            greyDepth: greyDepth, compression: compression, repeats: repeats, threads: threads, cuts: cuts,
                                            text: text)
        try rows.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return }
            try writer.write(base, count: size.height, stride: width * (bytesPerPixel ?? channels))
        }
        _ = try writer.finish()
        helperCPU += writer.helperCPU
        return stream.memory
    }
}
