import CPNG
import Foundation

/// Writes a PNG file's bytes (signature, chunks with their CRC-32, IEND) to a
/// descriptor or to memory, through a 64 KiB buffer. The image data comes
/// from `SegmentedZlib`; the rest is the container, which is simple enough to
/// write here (the tests read every output back with libpng).
final class PNGStream {
    enum ColourType: UInt8 {
        case palette = 3
        case rgb = 2
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
        ihdr += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
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

    /// The last IDAT, IEND, and everything still buffered.
    func finish() throws {
        try flushImageData()
        try chunk("IEND", [])
        try drain()
    }

    private func chunk(_ type: String, _ data: [UInt8]) throws {
        let typeBytes = Array(type.utf8)
        var crc = crc32(0, typeBytes, 4)
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
        try put(bigEndian(UInt32(data.count)))
        try put(typeBytes)
        try put(data)
        try put(bigEndian(UInt32(truncatingIfNeeded: crc)))
    }

    private func put(_ bytes: [UInt8]) throws {
        buffer += bytes
        count += bytes.count
        if descriptor != nil && buffer.count >= 1 << 16 { try drain() }
    }

    private func drain() throws {
        guard let descriptor else { return }
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

    private func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
