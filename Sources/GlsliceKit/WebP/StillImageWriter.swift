/// A whole image written in the format its name says, as `render` decides it:
/// `.webp` is lossless WebP, `.png` (or no image extension, or `-`) PNG, and a
/// format glslice cannot write (`.jpg`, `.gif`, …) is refused with render's words.
/// For the commands that write one finished image: preview's contact sheet,
/// compare's heat map, optimize's WebP.
package enum StillImageWriter {
    /// The format `output`'s name gives, or render's refusal: asked before any work, as render asks.
    package static func format(for output: String) throws -> ImageFormat {
        try ImageFormat.named(OutputTarget(output).displayName) ?? .png
    }

    /// `image` as a lossless WebP file, in memory, for `output`: its name is the one a refusal
    /// gives (past WebP's limit), as preview's and compare's do, not "<memory>".
    package static func webp(_ image: PremultipliedImage, for output: String) throws -> [UInt8] {
        if let refusal = WebPEncoder.refusal(for: PixelSize(width: image.width, height: image.height)) {
            throw refusal.about(OutputTarget(output).displayName)
        }
        let writer = try webp(image, to: .memory)
        return writer.memoryData ?? []
    }

    /// Writes `image` to `output` ('-': standard output, as PNG) in the format its name gives; returns the bytes written.
    @discardableResult
    package static func write(_ image: PremultipliedImage, to output: String) throws -> Int {
        let target = OutputTarget(output)
        switch try format(for: output) {
        case .png: return try PNGEncoder.write(image, to: target)
        case .webp: return try webp(image, to: target).byteCount
        }
    }

    /// `image` through a finished WebP encoder aimed at `target`.
    private static func webp(_ image: PremultipliedImage, to target: OutputTarget) throws -> (memoryData: [UInt8]?, byteCount: Int) {
        let writer = try WebPEncoder(target: target, size: PixelSize(width: image.width, height: image.height), compression: .default)
        try image.rgba.pixels.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try writer.write(premultipliedRows: base, count: image.height)
        }
        let count = try writer.finish()
        return (writer.memoryData, count)
    }
}
