import CPNG
import Foundation

/// Writes a PNG file's bytes (signature, chunks with their CRC-32, IEND) to a
/// descriptor or to memory, through a 64 KiB buffer. The image data comes
/// from `SegmentedZlib`; the rest is the container, which is simple enough to
/// write here (the tests read every output back with libpng).
final class PNGStream {
    enum ColourType: UInt8 {
        case grey = 0
        case palette = 3
        case rgb = 2
        case greyAlpha = 4
        case rgba = 6
    }

    /// nil: the PNG is kept in memory.
    private let descriptor: Int32?
    private var buffer: [UInt8] = []
    /// Bytes written so far (buffered ones included).
    private(set) var count = 0
    /// The whole file, when writing to memory (no `descriptor`).
    var memory: [UInt8] { buffer }
    private var idat: [UInt8] = []
    private let name: String

    /// No `descriptor` keeps the PNG in memory.
    init(descriptor: Int32?, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(descriptor == nil ? 4096 : 1 << 16)
    }

    /// Signature, IHDR, then PLTE and tRNS for a palette, and an optional tEXt.
    func writeHead(width: Int, height: Int, bitDepth: Int, colour: ColourType,
                   palette: [UInt8], text: (key: String, value: String)?) throws {
        try put(ImageSignature.png)
        var ihdr = [UInt8]()
        ihdr.reserveCapacity(13)
        Self.appendBigEndian(UInt32(width), to: &ihdr)
        Self.appendBigEndian(UInt32(height), to: &ihdr)
        ihdr += [UInt8(bitDepth), colour.rawValue, 0, 0, 0]
        try chunk("IHDR", ihdr)
        if colour == .palette {
            let entries = palette.count / 4
            var plte = [UInt8](), alphas = [UInt8]()
            for i in 0..<entries {
                plte += palette[4 * i..<4 * i + 3]
                alphas.append(palette[4 * i + 3])
            }
            try chunk("PLTE", plte)
            // tRNS stops after the last translucent entry (absent when all are opaque).
            if let last = alphas.lastIndex(where: { $0 != 255 }) { try chunk("tRNS", Array(alphas[0...last])) }
        }
        if let text { try chunk("tEXt", Array(text.key.utf8) + [0] + Array(text.value.utf8)) }
    }

    /// Part of the zlib stream; IDAT chunks of 256 KiB are cut from it (the
    /// last one shorter), however it arrives, so the GPU's one stream and the
    /// CPU's pieces make the same file.
    func imageData(_ bytes: [UInt8]) throws {
        idat += bytes
        if idat.count >= Self.idatBytes {
            var start = 0
            while idat.count - start >= Self.idatBytes {
                try chunk("IDAT", Array(idat[start..<(start + Self.idatBytes)]))
                start += Self.idatBytes
            }
            idat.removeFirst(start)
        }
    }

    private static let idatBytes = 1 << 18

    private func flushImageData() throws {
        guard !idat.isEmpty else { return }
        try chunk("IDAT", idat)
        idat.removeAll(keepingCapacity: true)
    }

    /// A whole file made elsewhere (`small`'s choice between two colour types), written as it is.
    func copy(_ file: [UInt8]) throws {
        try put(file)
        try drain()
    }

    /// The last IDAT, IEND, and everything still buffered.
    func finish() throws {
        try flushImageData()
        try chunk("IEND", [])
        try drain()
    }

    /// Length, type, data and CRC appended to the buffer in place (the CRC read from it), with no
    /// array a field: a small output's head and chunks were a tenth of its allocations.
    private func chunk(_ type: String, _ data: [UInt8]) throws {
        Self.appendBigEndian(UInt32(data.count), to: &buffer)
        let typeStart = buffer.count
        buffer.append(contentsOf: type.utf8)
        buffer += data
        let crc = buffer.withUnsafeBufferPointer { crc32(0, $0.baseAddress.map { $0 + typeStart }, UInt32($0.count - typeStart)) }
        Self.appendBigEndian(UInt32(truncatingIfNeeded: crc), to: &buffer)
        count += 12 + data.count
        if descriptor != nil && buffer.count >= 1 << 16 { try drain() }
    }

    private func put(_ bytes: [UInt8]) throws {
        buffer += bytes
        count += bytes.count
        if descriptor != nil && buffer.count >= 1 << 16 { try drain() }
    }

    /// Time spent in `write(2)`: the file's, not the encoder's (`PNGEncoder.fileTime`).
    private(set) var writeTime = StageTime.zero

    private func drain() throws {
        guard let descriptor else { return }
        let start = StageClock.now
        defer { writeTime += StageClock.now - start }
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(descriptor, base + done, raw.count - done)
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw n < 0 ? FileErrors.cannotWrite(name, systemError()) : FileErrors.wroteNothing(name) }
            done += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private static func appendBigEndian(_ v: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(v >> 24))
        bytes.append(UInt8(v >> 16 & 0xFF))
        bytes.append(UInt8(v >> 8 & 0xFF))
        bytes.append(UInt8(v & 0xFF))
    }
}
