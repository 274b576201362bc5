import CPNG
import Foundation

/// zlib settings. Every level writes rows with the None filter: on the bench
/// manifest's 2,400 nine-slice outputs (flat colour, 1-px gradients, tiles)
/// None at level 6 gave 3.94 MB against 4.41 MB for a fixed Up filter and
/// 4.07 MB for libpng's adaptive choice, at the speed of Up and 1.6× that of
/// adaptive; at level 9 it gave 3.68 MB, twice as fast as adaptive at 9.
extension Compression {
    var zlibLevel: Int32 {
        switch self {
        case .fast: 1
        case .default: 6
        case .small: 9
        }
    }

    var filters: Int32 { gs_png_filter_none() }
}

/// Where a PNG goes: a file (written to a temporary name, then renamed) or stdout.
public enum OutputTarget: Sendable, Equatable {
    case file(String)
    case standardOutput

    /// `-` means standard output.
    public init(_ path: String) {
        self = path == "-" ? .standardOutput : .file(path)
    }

    var displayName: String {
        switch self {
        case .file(let path): path
        case .standardOutput: "<stdout>"
        }
    }
}

/// Streams premultiplied rows into a PNG, unpremultiplying on the way.
///
/// Files appear only complete: rows go to a temporary file beside the target,
/// renamed on `finish()`. An unfinished writer removes its temporary file.
public final class PNGWriter: RowSink {
    private var writer: OpaquePointer?
    private let target: OutputTarget
    private var temporaryPath: String?
    private let width: Int
    private let opaque: Bool
    private var scratch: [UInt8]
    public private(set) var rowsWritten = 0
    public let size: PixelSize

    /// - Parameters:
    ///   - opaque: write RGB (the caller knows every alpha is 255).
    ///   - text: an optional tEXt chunk (key, value), such as a batch job's digest.
    public init(target: OutputTarget, size: PixelSize, opaque: Bool, compression: Compression,
                text: (key: String, value: String)? = nil) throws {
        self.target = target
        self.size = size
        self.width = size.width
        self.opaque = opaque
        self.scratch = []
        let fd: Int32
        switch target {
        case .standardOutput:
            fd = dup(STDOUT_FILENO)
            guard fd >= 0 else { throw GlsliceError(.cannotWrite, file: "<stdout>", "cannot write to standard output") }
        case .file(let path):
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw GlsliceError(.cannotWrite, file: path, "output folder \(folder) does not exist")
            }
            var template = Array("\(folder)/.\(url.lastPathComponent).XXXXXX.tmp".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemps($0, 4) } ?? -1 }
            guard fd >= 0 else {
                throw GlsliceError(.cannotWrite, file: path, "cannot create a file in \(folder): \(systemError())")
            }
            temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            fchmod(fd, 0o644)
        }
        var message = [CChar](repeating: 0, count: Int(GS_PNG_MESSAGE_SIZE))
        writer = gs_png_writer_open(fd, UInt32(size.width), UInt32(size.height), opaque ? 3 : 4,
                                    compression.zlibLevel, compression.filters, text?.key, text?.value, &message)
        if writer == nil {
            removeTemporary()
            throw GlsliceError(.cannotWrite, file: target.displayName, cMessage(message))
        }
    }

    deinit {
        if let writer { gs_png_writer_abort(writer) }
        removeTemporary()
    }

    private func removeTemporary() {
        if let temporaryPath { unlink(temporaryPath) }
        temporaryPath = nil
    }

    /// Appends `count` packed rows of premultiplied RGBA8, unpremultiplying
    /// one row at a time so memory stays at one row beyond the caller's band.
    public func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int) throws {
        try write(premultipliedRows: rows, count: count, rowStride: width * 4)
    }

    /// Appends `count` rows that start `rowStride` bytes apart (a rectangle of a
    /// larger buffer, such as one output in a GPU atlas).
    public func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) throws {
        guard let writer else { throw GlsliceError(.internal, file: target.displayName, "write after finish") }
        let stride = width * 4
        if scratch.count < stride { scratch = [UInt8](repeating: 0, count: stride) }
        var message = [CChar](repeating: 0, count: Int(GS_PNG_MESSAGE_SIZE))
        let status = scratch.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return Int32(GS_PNG_OK) }
            if opaque {
                // Alpha 255 everywhere: premultiplied and straight values are the same bytes.
                return gs_png_writer_write_rows(writer, rows, UInt32(count), rowStride, &message)
            }
            for row in 0..<count {
                Premultiply.unpremultiply(rows + row * rowStride, into: base, count: width)
                let status = gs_png_writer_write_rows(writer, base, 1, stride, &message)
                if status != Int32(GS_PNG_OK) { return status }
            }
            return Int32(GS_PNG_OK)
        }
        guard status == Int32(GS_PNG_OK) else {
            throw GlsliceError(.cannotWrite, file: target.displayName, cMessage(message))
        }
        rowsWritten += count
    }

    /// Completes the file and gives it its name. Returns the bytes written
    /// (0 for stdout, where they are not counted).
    @discardableResult
    public func finish() throws -> Int {
        guard let writer else { throw GlsliceError(.internal, file: target.displayName, "finish called twice") }
        guard rowsWritten == size.height else {
            throw GlsliceError(.internal, file: target.displayName, "only \(rowsWritten) of \(size.height) rows were written")
        }
        self.writer = nil
        var message = [CChar](repeating: 0, count: Int(GS_PNG_MESSAGE_SIZE))
        var bytes: UInt64 = 0
        guard gs_png_writer_finish(writer, &bytes, &message) == Int32(GS_PNG_OK) else {
            throw GlsliceError(.cannotWrite, file: target.displayName, cMessage(message))
        }
        guard case .file(let path) = target, let temporaryPath else { return 0 }
        guard rename(temporaryPath, path) == 0 else {
            throw GlsliceError(.cannotWrite, file: path, "cannot rename into place: \(systemError())")
        }
        self.temporaryPath = nil
        return Int(bytes)
    }
}

public enum PNGEncoder {
    /// Writes a whole premultiplied image; RGB when every pixel is opaque.
    @discardableResult
    public static func write(_ image: PremultipliedImage, to target: OutputTarget,
                             compression: Compression = .default,
                             text: (key: String, value: String)? = nil) throws -> Int {
        let size = PixelSize(width: image.width, height: image.height)
        let writer = try PNGWriter(target: target, size: size, opaque: image.rgba.isOpaque, compression: compression,
                                   text: text)
        let band = 64
        try image.rgba.pixels.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var y = 0
            while y < image.height {
                let count = min(band, image.height - y)
                try writer.write(premultipliedRows: base + y * image.width * 4, count: count)
                y += count
            }
        }
        return try writer.finish()
    }
}
