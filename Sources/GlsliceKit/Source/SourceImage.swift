import Foundation

/// A decoded source ready to render: premultiplied pixels, the file they came
/// from, and what the source itself says about how to draw it.
package struct SourceImage: Sendable {
    package var image: PremultipliedImage
    /// The PNG file the pixels came from (an image set's variant, not its folder).
    package var file: String
    package var hints: SourceHints

    package var size: PixelSize { PixelSize(width: image.width, height: image.height) }

    package init(image: PremultipliedImage, file: String, hints: SourceHints = SourceHints()) {
        self.image = image
        self.file = file
        self.hints = hints
    }

    /// Decodes `data` read from `path`: an `npTc` chunk is a compiled nine-patch,
    /// a `.9.png` name without one means raw Android border markers. Both
    /// stretch by default, as Android always draws a nine-patch.
    /// - Parameter ninePatch: read border markers whatever the name says (standard input has no name).
    package static func decode(data: Data, path: String, maxPixels: Int, ninePatch: Bool = false) throws -> SourceImage {
        do {
            let file = try PNGDecoder.decodeFile(data: data, maxPixels: maxPixels)
            // Premultiplying copies the pixels once more.
            try ensureMemory(file.image.width * file.image.height * 4, for: "a \(file.image.width)x\(file.image.height) source")
            if let chunk = file.ninePatchChunk {
                // Compiled by Android's resource compiler: border gone, markers in the chunk.
                let compiled = try NinePatch.compiled(chunk: chunk, layoutBounds: file.layoutBoundsChunk,
                                                      width: file.image.width, height: file.image.height)
                return SourceImage(image: file.image.premultiplied(), file: path,
                                   hints: .ninePatch(compiled.lattice, compiled.bounds))
            }
            guard ninePatch || NinePatch.isNinePatch(path: path) else {
                var hints = SourceHints()
                // Only a nameless source can be a nine-patch that nobody said was one.
                hints.looksLikeNinePatch = path == "-" && NinePatch.looksLikeNinePatch(file.image)
                return SourceImage(image: file.image.premultiplied(), file: path, hints: hints)
            }
            // aapt2 reads 16-bit markers by their high byte; the artwork keeps accurate scaling.
            let markers = file.bitDepth == 16 ? try PNGDecoder.decodeFile(data: data, maxPixels: maxPixels, highByte: true).image : nil
            let patch = try NinePatch(parsing: file.image, markers: markers)
            return SourceImage(image: patch.artwork.premultiplied(), file: path, hints: .ninePatch(patch.lattice, patch.bounds))
        } catch let error as GlsliceError {
            throw error.about(path)
        }
    }

    /// Reads and decodes `path` (`-` is standard input).
    package static func load(path: String, maxPixels: Int, ninePatch: Bool = false) throws -> SourceImage {
        try decode(data: PNGDecoder.readInput(path), path: path, maxPixels: maxPixels, ninePatch: ninePatch)
    }
}
