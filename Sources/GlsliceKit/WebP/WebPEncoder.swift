import CWebP
import Foundation

/// Lossless WebP through libwebp, fed the same premultiplied rows as
/// `PNGEncoder`. libwebp encodes a whole picture at once, so the rows are kept
/// (straight, as a PNG stores them) until `finish`, which encodes and names
/// the file as `PNGEncoder` does (`OutputFile`: complete or absent).
package final class WebPEncoder: StripSink {
    /// libwebp's limit on either side (VP8L stores each in 14 bits).
    static let maxSide = 16_383
    /// Bytes a lossless encode holds per output pixel, all told: the straight
    /// rows kept here (4) and libwebp's working memory (its ARGB copy, hash
    /// chains and backward references). Peak RSS over the pixel count, less
    /// the source and the process, at 2048² px: 19.5 for flat art, 34.8 for
    /// noise (docs/HARDENING.md). `serve` holds this much of `--answer-mb`
    /// for each WebP while it is drawn and encoded.
    package static let encodeBytesPerPixel = 36

    /// Why an output of `size` cannot be a WebP (a side past `maxSide`), or nil.
    /// - Parameter option: the request option to name (serve's `format`), if any.
    package static func refusal(for size: PixelSize, option: RequestOption? = nil) -> GlsliceError? {
        guard size.width > maxSide || size.height > maxSide else { return nil }
        return InputErrors.webPOutputOverLimit(size: size, maxSide: maxSide, option: option)
    }

    private let target: OutputTarget
    private let size: PixelSize
    private let level: Int32
    private let inMemory: Bool
    /// The XMP packet to add (a batch job's digest), or nil.
    private let xmp: [UInt8]?
    private var file: OutputFile?
    /// Asked just before the file is named (`OutputFile.mayName`).
    var mayName: (() -> Bool)?
    /// Told the file's byte count and time just before it is named (`OutputFile.willName`).
    var willName: ((_ bytes: Int, _ modified: Int, _ folder: Int32) -> Void)?
    private var pixels: [UInt8]
    private var rowsWritten = 0
    private var finished = false
    /// The finished WebP, for a writer whose target is `.memory`.
    package private(set) var memoryData: [UInt8]?
    /// Time spent opening, writing and naming the file.
    package private(set) var fileTime = StageTime.zero
    /// libwebp encodes on the calling thread.
    var helperCPU: Duration { .zero }

    /// - Parameter record: an optional (key, value) kept in the file's XMP
    ///   packet (`XMPRecord`), such as a batch job's digest.
    package init(target: OutputTarget, size: PixelSize, compression: Compression,
                 record: (key: String, value: String)? = nil) throws {
        try WebPEncoder.check(size, name: target.displayName)
        self.target = target
        self.size = size
        level = WebPEncoder.level(compression)
        inMemory = target == .memory
        xmp = record.map { XMPRecord.packet(key: $0.key, value: $0.value) }
        pixels = [UInt8](repeating: 0, count: size.pixelCount * 4)
        let start = StageClock.now
        switch target {
        case .file(let path, let durable): file = try OutputFile(path: path, durable: durable)
        case .contained(let path, let scope, let durable): file = try OutputFile(path, beneath: scope, durable: durable)
        case .standardOutput, .descriptor, .memory: break
        }
        fileTime += StageClock.now - start
    }

    deinit { file?.discard() }

    /// libwebp's lossless preset for each `--compression`: 1, 6 and 8. On the
    /// bench manifest preset 9 took 13× preset 8's time (85 s against 6.6 s
    /// for 2,400 outputs) for 2.7% fewer bytes, so `small` stops at 8.
    static func level(_ compression: Compression) -> Int32 {
        switch compression {
        case .fast: 1
        case .default, .zlib: 6
        case .small: 8
        }
    }

    private static func check(_ size: PixelSize, name: String) throws {
        if let refusal = refusal(for: size) { throw refusal.about(name) }
    }

    private var displayName: String { target.displayName }

    package func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int) throws {
        try write(premultipliedRows: rows, count: count, rowStride: size.width * 4)
    }

    /// Keeps `count` rows, `rowStride` bytes apart, in their straight form.
    package func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) throws {
        guard rowsWritten + count <= size.height else {
            throw InternalErrors.tooManyRows(displayName, height: size.height)
        }
        let width = size.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in 0..<count {
                Premultiply.unpremultiply(rows + row * rowStride, into: base + (rowsWritten + row) * width * 4, count: width)
            }
        }
        rowsWritten += count
    }

    /// Encodes, writes and names the file. Returns the bytes written.
    @discardableResult
    package func finish() throws -> Int {
        guard !finished else { throw InternalErrors.finishedTwice(displayName) }
        finished = true
        guard rowsWritten == size.height else {
            throw InternalErrors.rowsMissing(displayName, written: rowsWritten, height: size.height)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let packet = xmp ?? []
        let status = pixels.withUnsafeBufferPointer { buffer in
            packet.withUnsafeBufferPointer { packet in
                gs_webp_encode_lossless(buffer.baseAddress, Int32(size.width), Int32(size.height), Int32(size.width * 4),
                                        level, xmp == nil ? nil : packet.baseAddress, packet.count, &output, &length)
            }
        }
        pixels = []
        defer { gs_webp_free(output) }
        guard status == 0, let output else {
            throw InternalErrors.webPEncodeFailed(status: Int32(status), file: displayName)
        }
        let data = Data(bytes: output, count: length)
        if inMemory {
            memoryData = [UInt8](data)
            return length
        }
        let start = StageClock.now
        defer { fileTime += StageClock.now - start }
        switch target {
        case .standardOutput: try writeAll(data, to: STDOUT_FILENO, name: displayName)
        case .descriptor(let fd): try writeAll(data, to: fd, name: displayName)
        case .memory: break
        case .file, .contained:
            guard let file else { throw InternalErrors.noEncoderOpen(displayName) }
            try writeAll(data, to: file.descriptor, name: displayName)
            file.mayName = mayName
            file.willName = willName
            try file.commit()
        }
        return length
    }
}
