import Foundation

/// Whole images to PNG in one call (tests, previews, the optimiser): the image, already in memory, written at once.
extension PNGEncoder {
    /// Writes a whole premultiplied image; RGB when every pixel is opaque.
    @discardableResult
    /// `repeats`: what the plan says repeats, for glslice's deflate (as the engine gives it).
    package static func write(_ image: PremultipliedImage, to target: OutputTarget,
                             compression: Compression = .default, repeats: RepeatMap = .none,
                             text: (key: String, value: String)? = nil) throws -> Int {
        let size = PixelSize(width: image.width, height: image.height)
        let writer = try PNGEncoder(target: target, size: size, opaque: image.rgba.isOpaque, compression: compression,
                                   repeats: repeats, text: text)
        try image.rgba.pixels.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try writer.write(premultipliedRows: base, count: image.height)
        }
        return try writer.finish()
    }

    /// The PNG of a whole premultiplied image, in memory.
    package static func encode(_ image: PremultipliedImage, compression: Compression = .default) throws -> Data {
        Data(try memoryFile(image.rgba.pixels, size: PixelSize(width: image.width, height: image.height), opaque: image.rgba.isOpaque,
                            compression: compression))
    }

    /// The PNG of whole premultiplied RGBA8 `pixels` in memory, on one thread: the CPU's
    /// reference file that the GPU's encodings are held to (with the plan's `repeats`).
    package static func memoryFile(_ pixels: [UInt8], size: PixelSize, opaque: Bool, compression: Compression = .default,
                                   repeats: RepeatMap = .none) throws -> [UInt8] {
        let writer = try PNGEncoder(target: .memory, size: size, opaque: opaque, compression: compression, repeats: repeats, threads: 1)
        try pixels.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try writer.write(premultipliedRows: base, count: size.height)
        }
        _ = try writer.finish()
        return writer.memoryData ?? []
    }
}
