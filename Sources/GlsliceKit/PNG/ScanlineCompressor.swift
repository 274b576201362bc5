import Foundation

/// Turns rows of straight RGBA8 (or palette indices, one a byte) into PNG
/// scanlines (filter byte None, then RGBA, RGB or indices packed to 1–8 bits;
/// glslice deflate's rows None or Up, `RowFilter`) and streams them through
/// `SegmentedZlib` into a `PNGStream`.
final class ScanlineCompressor {
    let channels: Int
    let bitDepth: Int
    private let width: Int
    private let stream: PNGStream
    private let zlib: SegmentedZlib
    /// One row with its filter byte.
    private let rowBytes: Int
    /// Whether rows are filtered (`RowFilter`): every level but `zlib`.
    private let filtersRows: Bool
    /// Whether the rows are palette indices (else grey levels or colours).
    private let indexed: Bool
    /// While filtering: the raw row above (once `rowsWritten` > 0), and the raw row being written.
    private var above: UnsafeMutablePointer<UInt8>
    private var raw: UnsafeMutablePointer<UInt8>
    private var rowsWritten = 0
    /// Which rows are written None whatever their bytes (`RepeatMap.noneRows`): rows from `noneFrom`,
    /// worked out `noneChunk` (or 8 windows) at a time.
    private let deflater: RepeatDeflater
    private var none: [Bool] = [], noneFrom = 0
    private static let noneChunk = 4096

    /// - Parameters:
    ///   - channels: 1 (indices into `palette`, `palette.count / 4` entries; or grey levels, with
    ///     `greyDepth`), 2 (grey and alpha), 3 or 4.
    ///   - greyDepth: the bits of a grey level, where `channels` 1 are grey rather than indices.
    ///   - repeats: what the plan says repeats; glslice's own deflate writes it without searching.
    ///   - threads: how many zlib pieces may compress at once.
    init(stream: PNGStream, width: Int, height: Int, channels: Int, palette: [UInt8], greyDepth: Int? = nil, compression: Compression,
         repeats: RepeatMap, threads: Int, cuts: SegmentedZlib.Cuts, text: (key: String, value: String)?) throws {
        self.stream = stream
        self.width = width
        self.channels = channels
        let (bitDepth, rowBytes) = greyDepth.map { ($0, 1 + (width * $0 + 7) / 8) }
            ?? Self.layout(width: width, channels: channels, paletteEntries: palette.count / 4)
        self.bitDepth = bitDepth
        self.rowBytes = rowBytes
        let colour: PNGStream.ColourType = switch channels {
        case 1: greyDepth == nil ? .palette : .grey
        case 2: .greyAlpha
        case 3: .rgb
        default: .rgba
        }
        try stream.writeHead(width: width, height: height, bitDepth: bitDepth, colour: colour, palette: palette, text: text)
        indexed = colour == .palette
        let total = rowBytes * height
        filtersRows = compression.readsPlanRepeats && RowFilter.filters(channels: channels, rowBytes: rowBytes)
        above = .allocate(capacity: filtersRows ? rowBytes : 0)
        raw = .allocate(capacity: filtersRows ? rowBytes : 0)
        deflater = RepeatDeflater(map: repeats, width: width, rowBytes: rowBytes, bitsPerPixel: channels == 1 ? bitDepth : 8 * channels,
                                  filtersRows: filtersRows, height: height)
        let coder: SegmentedZlib.Coder = switch compression {
        case .fast, .default: .repeats(deflater)
        case .zlib: .zlib(level: 6)
        case .small: .smaller(level: 9, deflater)
        }
        zlib = SegmentedZlib(coder: coder, totalBytes: total, rowBytes: rowBytes,
                             threads: total > 2 * cuts.pieceBytes ? threads : 1, cuts: cuts,
                             emit: { [stream] in try stream.imageData($0) })
    }

    /// The CPU time the stream's helper threads spent (`SegmentedZlib.helperCPU`).
    var helperCPU: Duration { zlib.helperCPU }

    deinit {
        above.deallocate()
        raw.deallocate()
    }

    /// The bit depth (of indices, the fewest bits that hold `paletteEntries`; else 8)
    /// and a scanline's bytes with its filter byte, for `channels` 1 (indices), 3 or 4.
    static func layout(width: Int, channels: Int, paletteEntries entries: Int) -> (bitDepth: Int, rowBytes: Int) {
        let bitDepth = channels != 1 ? 8 : entries <= 2 ? 1 : entries <= 4 ? 2 : entries <= 16 ? 4 : 8
        return (bitDepth, 1 + (channels == 1 ? (width * bitDepth + 7) / 8 : width * channels))
    }

    /// `count` rows `stride` bytes apart: RGBA8 (its alpha dropped for RGB), or indices, grey levels
    /// or grey and alpha, as they are written.
    /// `unpremultiplying`: the rows are premultiplied RGBA, made straight as they are written.
    func write(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int, unpremultiplying: Bool = false) throws {
        let width = self.width, channels = self.channels, depth = bitDepth, rowBytes = self.rowBytes, packedBytes = rowBytes - 1
        try zlib.appendRows(count) { r, row in
            let input = rows + r * stride
            // A filtered row is made raw first, then filtered into place (`RowFilter`).
            let out = filtersRows ? raw : row
            defer {
                if filtersRows {
                    if rowsWritten - noneFrom >= none.count {
                        noneFrom = rowsWritten
                        // It reads 2 windows either side: 8 windows at a time, where more than `noneChunk` rows.
                        let window = deflater.filtering?.window ?? 0, height = deflater.filtering?.height ?? 0
                        none = deflater.noneRows(rowsWritten..<min(height, rowsWritten + max(Self.noneChunk, 8 * window)))
                    }
                    RowFilter.apply(raw, above: rowsWritten > 0 ? UnsafePointer(above) : nil, into: row, count: rowBytes, palette: indexed,
                                    asIs: none[rowsWritten - noneFrom])
                    swap(&raw, &above)
                    rowsWritten += 1
                }
            }
            out[0] = 0 // filter: None
            let data = out + 1
            switch channels {
            case 4 where unpremultiplying:
                Premultiply.unpremultiply(input, into: data, count: width)
            case 4:
                data.update(from: input, count: width * 4)
            case 3:
                Self.dropAlpha(input, into: data, width: width)
            default:
                if depth == 8 {
                    data.update(from: input, count: width * channels) // indices, grey, or grey and alpha
                } else {
                    switch depth {
                    case 4: Self.pack(input, into: data, width: width, packedBytes: packedBytes, depth: 4)
                    case 2: Self.pack(input, into: data, width: width, packedBytes: packedBytes, depth: 2)
                    default: Self.pack(input, into: data, width: width, packedBytes: packedBytes, depth: 1)
                    }
                }
            }
        }
    }

    /// Indices packed `depth` bits each from the most significant bits, as PNG orders them, the
    /// last byte's unused bits 0. Inlined with `depth` a constant, so the bits of a byte are
    /// gathered without a loop (a quarter of the bench manifest's outputs are 1 or 4 bits deep).
    @inline(__always)
    private static func pack(_ input: UnsafePointer<UInt8>, into data: UnsafeMutablePointer<UInt8>, width: Int, packedBytes: Int,
                             depth: Int) {
        let perByte = 8 / depth, whole = width / perByte
        for b in 0..<whole {
            let x = input + b * perByte
            var byte: UInt8 = 0
            for k in 0..<perByte { byte |= x[k] << UInt8(8 - depth * (k + 1)) }
            data[b] = byte
        }
        if whole < packedBytes {
            var byte: UInt8 = 0
            for k in 0..<(width - whole * perByte) { byte |= input[whole * perByte + k] << UInt8(8 - depth * (k + 1)) }
            data[whole] = byte
        }
    }

    /// RGBA to RGB: four bytes stored per pixel, each store's fourth byte
    /// overwritten by the next pixel (the last pixel goes byte by byte).
    private static func dropAlpha(_ input: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, width: Int) {
        guard width > 0 else { return }
        let source = UnsafeRawPointer(input), target = UnsafeMutableRawPointer(out)
        for x in 0..<(width - 1) {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self), toByteOffset: 3 * x, as: UInt32.self)
        }
        let last = width - 1
        out[3 * last] = input[4 * last]
        out[3 * last + 1] = input[4 * last + 1]
        out[3 * last + 2] = input[4 * last + 2]
    }

    /// Ends the image data and the file; returns the file's length.
    func finish() throws -> Int {
        try zlib.finish()
        try stream.finish()
        return stream.count
    }
}
