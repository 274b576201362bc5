import Foundation

/// Reads a PNG's chunks from a descriptor, stopping after IEND (or a WebP's
/// RIFF container, stopping at its stated length).
struct ChunkFramer {
    let descriptor: Int32
    let name: String
    var bytes: [UInt8] = []
    var atEnd = false

    /// Reads until `count` bytes are held or the input ends.
    mutating func fill(to count: Int) throws {
        while bytes.count < count && !atEnd {
            let got = readAppending(descriptor, into: &bytes, count: max(count - bytes.count, 1 << 16))
            if got < 0 {
                let reason = systemError()
                throw FileErrors.cannotRead(name, reason)
            }
            if got == 0 { atEnd = true }
        }
    }

    /// A WebP up to its RIFF length, else what `readPNG` reads (`compare`
    /// takes either format glslice writes).
    mutating func readImage() throws -> Data {
        try fill(to: 12)
        guard ImageSignature.isWebP(bytes) else {
            return try readPNG()
        }
        let end = 8 + bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard end <= PNGDecoder.maxFileBytes else {
            throw InputErrors.fileTooLong(name, format: "WebP", limit: PNGDecoder.maxFileBytes)
        }
        try fill(to: end)
        return Data(bytes.prefix(end))
    }

    mutating func readPNG() throws -> Data {
        try fill(to: 8)
        // Not a PNG (or too short): the decoder says so from these bytes.
        guard bytes.count >= 8, ImageSignature.isPNG(bytes) else {
            try fill(to: 12) // enough for `ImageSignature.otherFormat` to name a WebP
            return Data(bytes.prefix(12))
        }
        var offset = 8
        while true {
            try fill(to: offset + 8)
            guard bytes.count >= offset + 8 else { break } // cut short: libpng reports it
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= 0x7fff_ffff else { break } // libpng reports the bad length
            let end = offset + 12 + length
            guard end <= PNGDecoder.maxFileBytes else {
                throw InputErrors.fileTooLong(name, format: "PNG", limit: PNGDecoder.maxFileBytes)
            }
            if offset == 8 && !bytes[12..<16].elementsEqual("IHDR".utf8) {
                // libpng's own words for this ("invalid location in png_set_unknown_chunks") say nothing to a user.
                let type = String(decoding: bytes[12..<16].map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
                throw InputErrors.firstChunkNotIHDR(name, type: type)
            }
            try fill(to: end)
            guard bytes.count >= end else { break }
            if bytes[offset + 4..<offset + 8].elementsEqual("IEND".utf8) { return Data(bytes[0..<end]) }
            offset = end
        }
        return Data(bytes)
    }
}
