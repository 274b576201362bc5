/// Where an output's strips come from when it is encoded: the one answer every
/// front end and both backends give, handed from a draw thread to an encoder.
package enum Drawing: Sendable {
    /// Not drawn yet: the encoding thread draws it strip by strip as it encodes,
    /// with the backend it holds (the CPU in batch and serve, and the CPU side
    /// of `hybrid`; the backend `render` opened).
    case here
    /// Drawn elsewhere: one strip in memory (a rectangle of a GPU atlas).
    case strip(Strip)
    /// Being drawn elsewhere, strip by strip (a large output on the GPU thread).
    case stream(StripStream)
    /// Drawn and encoded elsewhere: a `fast` PNG's image data, made by the GPU
    /// thread's compute encoder; only the file is left to write.
    case encoded(EncodedImageData)
}

extension Drawing {
    /// An image drawn already, as one strip (as an atlas's are): its pixels copied once.
    static func strip(of image: PremultipliedImage) -> Drawing {
        let buffer = PixelBuffer(byteCount: image.rgba.pixels.count, budget: nil)
        image.rgba.pixels.withUnsafeBufferPointer { pixels in
            if let from = pixels.baseAddress { buffer.base.update(from: from, count: pixels.count) }
        }
        return .strip(Strip(buffer: buffer, offset: 0, rows: image.height, rowStride: image.width * 4))
    }
}
