import Foundation

/// What `--resume` needs of an output already on disk: its size and the job
/// digest it records, read by seeking rather than whole, so a huge file costs a
/// few small reads and a FIFO or device at the path is never opened for reading.
/// The chunk chain is walked header by header from the signature to an IEND
/// that ends the file, so a file cut short is not taken as finished. (Pixel
/// data is not re-checked: outputs appear only complete, see `OutputFile`.)
package struct FinishedOutput: Equatable {
    package var size: PixelSize
    package var digest: String

    /// nil when `path` holds no regular file that is a whole chunk chain with
    /// its size and a `key` record: a PNG's tEXt chunk, a WebP's XMP packet.
    package static func read(path: String, key: String = JobDigest.textKey) -> FinishedOutput? {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let fileSize = Int(status.st_size)
        guard let magic = read(fd, at: 0, count: 12) else { return nil }
        if ImageSignature.isPNG(magic) {
            return readPNG(fd, fileSize: fileSize, key: key)
        }
        if ImageSignature.isWebP(magic) {
            return readWebP(fd, fileSize: fileSize, key: key)
        }
        return nil
    }

    /// A PNG: IHDR first, the `key` tEXt chunk, and an IEND that ends the file.
    private static func readPNG(_ fd: Int32, fileSize: Int, key: String) -> FinishedOutput? {
        guard fileSize >= 8 + 25 + 12 else { return nil }
        var offset = 8, size: PixelSize?, digest: String?, chunks = 0
        while offset + 12 <= fileSize {
            guard let header = read(fd, at: offset, count: 8) else { return nil }
            let length = bigEndian(header[0..<4])
            let type = String(decoding: header[4..<8], as: UTF8.self)
            let next = offset + 12 + length
            guard length <= Int(Int32.max), next <= fileSize else { return nil }
            chunks += 1
            switch type {
            case "IHDR":
                guard chunks == 1, length == 13, let body = read(fd, at: offset + 8, count: 8) else { return nil }
                size = PixelSize(width: bigEndian(body[0..<4]), height: bigEndian(body[4..<8]))
            case "tEXt" where digest == nil && length <= 1024:
                guard let body = read(fd, at: offset + 8, count: length),
                      let zero = body.firstIndex(of: 0), String(decoding: body[..<zero], as: UTF8.self) == key else { break }
                digest = String(decoding: body[(zero + 1)...], as: UTF8.self)
            case "IEND":
                guard length == 0, next == fileSize, let size, let digest else { return nil }
                return FinishedOutput(size: size, digest: digest)
            default:
                guard chunks > 1 else { return nil } // IHDR comes first
            }
            offset = next
        }
        return nil
    }

    /// A WebP in the extended format (`WebPEncoder` with a record): its RIFF
    /// size is the file's, VP8X comes first with the canvas size, and an `XMP `
    /// chunk holds `key` (`XMPRecord`). Chunks are walked to the file's end.
    private static func readWebP(_ fd: Int32, fileSize: Int, key: String) -> FinishedOutput? {
        guard let riff = read(fd, at: 4, count: 4), littleEndian(riff[0..<4]) + 8 == fileSize else { return nil }
        var offset = 12, size: PixelSize?, digest: String?, chunks = 0, image = false
        while offset + 8 <= fileSize {
            guard let header = read(fd, at: offset, count: 8) else { return nil }
            let type = String(decoding: header[0..<4], as: UTF8.self)
            let length = littleEndian(header[4..<8])
            let next = offset + 8 + length + (length & 1)
            guard next <= fileSize else { return nil }
            chunks += 1
            switch type {
            case "VP8X":
                guard chunks == 1, length == 10, let body = read(fd, at: offset + 8, count: 10) else { return nil }
                size = PixelSize(width: littleEndian(body[4..<7]) + 1, height: littleEndian(body[7..<10]) + 1)
            case "VP8L", "VP8 ":
                image = true
            case "XMP " where digest == nil && length <= 4096:
                guard let body = read(fd, at: offset + 8, count: length) else { return nil }
                digest = XMPRecord.value(in: body, key: key)
            default:
                guard chunks > 1 else { return nil } // VP8X comes first
            }
            offset = next
        }
        guard offset == fileSize, image, let size, let digest else { return nil }
        return FinishedOutput(size: size, digest: digest)
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }
    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reversed().reduce(0) { $0 << 8 | Int($1) } }

    private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return pread(fd, base + done, count - done, off_t(offset + done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }
}
