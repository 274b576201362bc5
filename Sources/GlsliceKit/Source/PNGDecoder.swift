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
        var ninePatchChunk: Data?
        /// The `npLb` chunk's data (a compiled nine-patch's optical bounds), if any.
        var layoutBoundsChunk: Data?
        /// Bits per sample in the file (1–16), before decoding to 8 bits.
        var bitDepth: Int
    }

    /// Decodes every colour type to straight RGBA8. `highByte` keeps the high
    /// byte of 16-bit samples, as aapt2 reads nine-patch markers; rendering
    /// uses libpng's accurate scaling (docs/RENDERING.md §4).
    package static func decodeFile(data: Data, maxPixels: Int, highByte: Bool = false) throws -> DecodedFile {
        // Named here, before libpng: an empty file or a JPEG says so, rather than "bad signature".
        if !ImageSignature.isPNG(data) {
            throw InputErrors.notAPNG(empty: data.isEmpty, format: ImageSignature.otherFormat(data))
        }
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
            case Int(GS_PNG_NOT_PNG), Int(GS_PNG_TOO_LARGE): throw InputErrors.decoderSays(text)
            case Int(GS_PNG_NO_MEMORY): throw InputErrors.notEnoughMemoryToDecodePNG()
            default: throw InputErrors.corruptPNG(text)
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

    /// The largest PNG file read: a 16-bit RGBA source at the default pixel
    /// limit (50 Mpx) is 400 MB raw, and deflate never grows data by more than 0.1%.
    static let maxFileBytes = 512 << 20

    /// The input's PNG bytes, up to and including IEND; `-` is standard input.
    ///
    /// Read chunk by chunk, so nothing past IEND is read (a PNG followed by
    /// gigabytes of junk costs the PNG), and a stream that is not a PNG stops
    /// after its 8-byte signature (`render - < /dev/zero`). libpng still checks
    /// everything it reads; this only frames.
    static func readInput(_ path: String) throws -> Data {
        try readInput(path, in: .anywhere)
    }

    /// `path` read through `scope` (beneath a server's root: only a regular file there).
    /// `frame` reads the bytes (a PNG up to IEND unless it says otherwise).
    static func readInput(_ path: String, in scope: FileScope,
                          frame: (inout ChunkFramer) throws -> Data = { try $0.readPNG() }) throws -> Data {
        if path == "-" && scope.folder == nil {
            var reader = ChunkFramer(descriptor: STDIN_FILENO, name: "<stdin>")
            return try frame(&reader)
        }
        let (descriptor, _) = try scope.openForReading(path)
        defer { close(descriptor) }
        var reader = ChunkFramer(descriptor: descriptor, name: path)
        return try frame(&reader)
    }

    /// The PNG or WebP at `path` (`-`: standard input), framed as `readInput`
    /// frames a PNG (`compare` reads both; `ImageSignature` tells them apart).
    static func readImageInput(_ path: String) throws -> Data {
        try readInput(path, in: .anywhere) { try $0.readImage() }
    }

    /// The PNG on an open descriptor, read up to IEND.
    static func read(descriptor: Int32, name: String) throws -> Data {
        var reader = ChunkFramer(descriptor: descriptor, name: name)
        return try reader.readPNG()
    }
}
