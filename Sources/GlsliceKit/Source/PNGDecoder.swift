import CPNG
import Foundation

/// Decodes PNG files through libpng (docs/RENDERING.md §4) into straight RGBA8.
public enum PNGDecoder {
    /// Reads and decodes `path` (`-` reads standard input), refusing images
    /// above `maxPixels` before allocating them.
    public static func decode(path: String, maxPixels: Int) throws -> StraightImage {
        let data = try readInput(path)
        do {
            return try decode(data: data, maxPixels: maxPixels)
        } catch let error as GlsliceError {
            throw error.about(path)
        }
    }

    public static func decode(data: Data, maxPixels: Int) throws -> StraightImage {
        try decodeFile(data: data, maxPixels: maxPixels).image
    }

    /// A decoded file: its pixels and what Android's resource compiler stored beside them.
    public struct DecodedFile {
        public var image: StraightImage
        /// The `npTc` chunk's data (a compiled nine-patch), if any.
        public var ninePatchChunk: Data?
        /// The `npLb` chunk's data (a compiled nine-patch's optical bounds), if any.
        public var layoutBoundsChunk: Data?
        /// Bits per sample in the file (1–16), before decoding to 8 bits.
        public var bitDepth: Int
    }

    /// Decodes every colour type to straight RGBA8. `highByte` keeps the high
    /// byte of 16-bit samples, as aapt2 reads nine-patch markers; rendering
    /// uses libpng's accurate scaling (docs/RENDERING.md §4).
    public static func decodeFile(data: Data, maxPixels: Int, highByte: Bool = false) throws -> DecodedFile {
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
    public static func text(key: String, path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = handle.readData(ofLength: 1 << 16)
        var value = [CChar](repeating: 0, count: 1024)
        var message = [CChar](repeating: 0, count: Int(GS_PNG_MESSAGE_SIZE))
        let status = head.withUnsafeBytes { raw in
            gs_png_read_text(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, key, &value, value.count, &message)
        }
        return status == Int32(GS_PNG_OK) ? cMessage(value) : nil
    }

    /// True when `path` holds a whole PNG: every chunk's CRC matches and IEND
    /// ends it. `--resume` trusts an output only then, as a killed writer or a
    /// full disk can leave a file whose head (and digest) is intact.
    public static func isWhole(path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        var message = [CChar](repeating: 0, count: Int(GS_PNG_MESSAGE_SIZE))
        return data.withUnsafeBytes { raw in
            gs_png_check_whole(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &message)
        } == Int32(GS_PNG_OK)
    }

    /// The whole input file; `-` is standard input.
    public static func readInput(_ path: String) throws -> Data {
        if path == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw GlsliceError(.noInput, file: path, "no such file")
        }
        guard !isDirectory.boolValue else {
            throw GlsliceError(.noInput, file: path, "is a folder, not a PNG file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GlsliceError(.noInput, file: path, "cannot be read (permissions?)")
        }
        return data
    }
}
