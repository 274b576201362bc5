import Foundation

/// Whole images to PNG in one call (tests, previews, the optimiser, the CPU's reference files):
/// the image, already in memory, written at once; RGB when every pixel is opaque.
extension PNGEncoder {
    /// Writes a whole premultiplied image to `target`. `repeats`: what the plan says repeats,
    /// for glslice's deflate (as the engine gives it).
    @discardableResult
    package static func write(_ image: PremultipliedImage, to target: OutputTarget,
                             compression: Compression = .default, repeats: RepeatMap = .none,
                             text: (key: String, value: String)? = nil) throws -> Int {
        try finished(image, to: target, compression: compression, repeats: repeats, text: text).bytes
    }

    /// The PNG of a whole premultiplied image, in memory.
    package static func encode(_ image: PremultipliedImage, compression: Compression = .default) throws -> Data {
        Data(try memoryFile(image, compression: compression))
    }

    /// The PNG of a whole premultiplied image in memory, on one thread: the CPU's reference file
    /// that the GPU's encodings are held to (with the plan's `repeats`).
    static func memoryFile(_ image: PremultipliedImage, compression: Compression = .default,
                                   repeats: RepeatMap = .none) throws -> [UInt8] {
        try finished(image, to: .memory, compression: compression, repeats: repeats, threads: 1).writer.memoryData ?? []
    }

    private static func finished(_ image: PremultipliedImage, to target: OutputTarget, compression: Compression, repeats: RepeatMap,
                                 text: (key: String, value: String)? = nil, threads: Int? = nil) throws -> (writer: PNGEncoder, bytes: Int) {
        let writer = try PNGEncoder(target: target, size: PixelSize(width: image.width, height: image.height), opaque: image.rgba.isOpaque,
                                   compression: compression, repeats: repeats, text: text, threads: threads)
        try image.rgba.pixels.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try writer.write(premultipliedRows: base, count: image.height)
        }
        return (writer, try writer.finish())
    }
}
