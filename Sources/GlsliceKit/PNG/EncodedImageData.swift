/// A PNG's image data made elsewhere (the GPU, issue 43): its colour type and
/// depth, any palette, and the whole zlib stream of its scanlines. `PNGEncoder`
/// frames it; the file is the one the CPU's encoder writes for the same pixels.
package struct EncodedImageData: Sendable {
    /// 1 (palette indices), 3 (RGB) or 4 (RGBA).
    var channels: Int
    /// Bits per index (1, 2, 4 or 8), or 8.
    var bitDepth: Int
    /// Straight RGBA8 entries, for a palette image.
    var palette: [UInt8]
    /// Header, deflate stream and Adler-32.
    var zlib: [UInt8]
}
