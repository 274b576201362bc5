import CPNG
import Foundation

/// Decodes PNG files through libpng (docs/RENDERING.md §4) into straight RGBA8.
package enum PNGDecoder {
    /// Reads and decodes `path` (`-` reads standard input), refusing images
    /// above `maxPixels` before allocating them.
    package static func decode(path: String, maxPixels: Int) throws -> StraightImage {
        let data = try readInput(path)
        do {
            return try decode(data: data, maxPixels: maxPixels)
        } catch let error as GlsliceError {
            throw error.about(path)
        }
    }

    package static func decode(data: Data, maxPixels: Int) throws -> StraightImage {
        try decodeFile(data: data, maxPixels: maxPixels).image
    }

    /// A decoded file: its pixels and what Android's resource compiler stored beside them.
    package struct DecodedFile {
        package var image: StraightImage
        /// The `npTc` chunk's data (a compiled nine-patch), if any.
        package var ninePatchChunk: Data?
        /// The `npLb` chunk's data (a compiled nine-patch's optical bounds), if any.
        package var layoutBoundsChunk: Data?
        /// Bits per sample in the file (1–16), before decoding to 8 bits.
        package var bitDepth: Int
    }

    /// Decodes every colour type to straight RGBA8. `highByte` keeps the high
    /// byte of 16-bit samples, as aapt2 reads nine-patch markers; rendering
    /// uses libpng's accurate scaling (docs/RENDERING.md §4).
    package static func decodeFile(data: Data, maxPixels: Int, highByte: Bool = false) throws -> DecodedFile {
        var image = gs_png_image()
        var message = [CChar](repeating: 0, count: Int(GS_PNG_MESSAGE_SIZE))
        let flags = highByte ? Int32(GS_PNG_HIGH_BYTE) : 0
        let status = data.withUnsafeBytes { raw -> Int32 in
            let bytes = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return gs_png_decode(bytes, raw.count, UInt64(max(0, maxPixels)), flags, &image, &message)
        }
        defer { gs_png_image_free(&image) }
        guard status == Int32(GS_PNG_OK) else {
            let text = cMessage(message)
            switch Int(status) {
            case Int(GS_PNG_NOT_PNG): throw GlsliceError(.badInput, text)
            case Int(GS_PNG_TOO_LARGE): throw GlsliceError(.badInput, text)
            case Int(GS_PNG_NO_MEMORY): throw GlsliceError(.badInput, "not enough memory to decode")
            default: throw GlsliceError(.badInput, "corrupt PNG: \(text)")
            }
        }
        let width = Int(image.width), height = Int(image.height)
        let count = width * height * 4
        let pixels: [UInt8]
        try ensureMemory(count, for: "a \(width)x\(height) source")
        if let base = image.pixels {
            pixels = Array(UnsafeBufferPointer(start: base, count: count))
        } else {
            pixels = []
        }
        return DecodedFile(image: StraightImage(RGBAImage(width: width, height: height, pixels: pixels)),
                           ninePatchChunk: image.nine_patch.map { Data(bytes: $0, count: image.nine_patch_length) },
                           layoutBoundsChunk: image.layout_bounds.map { Data(bytes: $0, count: image.layout_bounds_length) },
                           bitDepth: Int(image.bit_depth))
    }

    /// The tEXt chunk `key` of the PNG at `path`, reading only its first 64 KiB;
    /// nil when the file is missing, not a PNG, or has no such chunk.
    package static func text(key: String, path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return text(key: key, data: handle.readData(ofLength: 1 << 16))
    }

    /// The tEXt chunk `key` of a PNG held in memory (its head is enough).
    package static func text(key: String, data head: Data) -> String? {
        var value = [CChar](repeating: 0, count: 1024)
        var message = [CChar](repeating: 0, count: Int(GS_PNG_MESSAGE_SIZE))
        let status = head.withUnsafeBytes { raw in
            gs_png_read_text(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, key, &value, value.count, &message)
        }
        return status == Int32(GS_PNG_OK) ? cMessage(value) : nil
    }

    /// The largest PNG file read: a 16-bit RGBA source at the default pixel
    /// limit (50 Mpx) is 400 MB raw, and deflate never grows data by more than 0.1%.
    package static let maxFileBytes = 512 << 20

    /// The input's PNG bytes, up to and including IEND; `-` is standard input.
    ///
    /// Read chunk by chunk, so nothing past IEND is read (a PNG followed by
    /// gigabytes of junk costs the PNG), and a stream that is not a PNG stops
    /// after its 8-byte signature (`render - < /dev/zero`). libpng still checks
    /// everything it reads; this only frames.
    package static func readInput(_ path: String) throws -> Data {
        try readInput(path, in: .anywhere)
    }

    /// `path` read through `scope` (beneath a server's root: only a regular file there).
    static func readInput(_ path: String, in scope: FileScope) throws -> Data {
        if path == "-" && scope.folder == nil { return try read(descriptor: STDIN_FILENO, name: "<stdin>") }
        let (descriptor, _) = try scope.openForReading(path)
        defer { close(descriptor) }
        return try read(descriptor: descriptor, name: path)
    }

    /// The PNG on an open descriptor, read up to IEND.
    static func read(descriptor: Int32, name: String) throws -> Data {
        var reader = ChunkFramer(descriptor: descriptor, name: name)
        return try reader.readPNG()
    }
}

/// Reads a PNG's chunks from a descriptor, stopping after IEND.
private struct ChunkFramer {
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
                throw GlsliceError(.noInput, file: name, "cannot be read: \(reason)")
            }
            if got == 0 { atEnd = true }
        }
    }

    mutating func readPNG() throws -> Data {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        try fill(to: 8)
        // Not a PNG (or too short): the decoder says so from these bytes.
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return Data(bytes.prefix(8)) }
        var offset = 8
        while true {
            try fill(to: offset + 8)
            guard bytes.count >= offset + 8 else { break } // cut short: libpng reports it
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= 0x7fff_ffff else { break } // libpng reports the bad length
            let end = offset + 12 + length
            guard end <= PNGDecoder.maxFileBytes else {
                throw GlsliceError(.badInput, file: name,
                                   "the PNG is larger than \(PNGDecoder.maxFileBytes >> 20) MiB, more than any source within the pixel limit needs")
            }
            if offset == 8 && !bytes[12..<16].elementsEqual("IHDR".utf8) {
                // libpng's own words for this ("invalid location in png_set_unknown_chunks") say nothing to a user.
                let type = String(decoding: bytes[12..<16].map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
                throw GlsliceError(.badInput, file: name, "corrupt PNG: the first chunk is '\(type)', but a PNG must start with IHDR")
            }
            try fill(to: end)
            guard bytes.count >= end else { break }
            if bytes[offset + 4..<offset + 8].elementsEqual("IEND".utf8) { return Data(bytes[0..<end]) }
            offset = end
        }
        return Data(bytes)
    }
}
