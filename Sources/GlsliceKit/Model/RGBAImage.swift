/// An RGBA8 raster with packed rows. Whether it is straight or premultiplied
/// is said by the type that holds it: `StraightImage` from the decoder,
/// `PremultipliedImage` for everything that renders.
package struct RGBAImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    /// `width * height * 4` bytes, row after row.
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "pixel buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A fully transparent image.
    package init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    package subscript(x: Int, y: Int) -> [UInt8] {
        let i = (y * width + x) * 4
        return Array(pixels[i..<(i + 4)])
    }

    /// True when every alpha byte is 255.
    var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var i = 3
            while i < buffer.count {
                if buffer[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }
}

/// Straight-alpha RGBA8, as PNG stores it.
package struct StraightImage: Sendable, Equatable {
    package var rgba: RGBAImage
    package init(_ rgba: RGBAImage) { self.rgba = rgba }
    package var width: Int { rgba.width }
    package var height: Int { rgba.height }

    package func premultiplied() -> PremultipliedImage {
        var pixels = rgba.pixels
        pixels.withUnsafeMutableBufferPointer { Premultiply.premultiplyInPlace($0) }
        return PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels))
    }
}

/// Premultiplied RGBA8: what every backend samples and produces (docs/RENDERING.md §4).
package struct PremultipliedImage: Sendable, Equatable {
    package var rgba: RGBAImage
    package init(_ rgba: RGBAImage) { self.rgba = rgba }
    package var width: Int { rgba.width }
    package var height: Int { rgba.height }

    /// The image made of these source columns and rows, in order (an image
    /// set's dropped centre pixels, an optimized source's shrunk bands).
    func keeping(columns: [Int], rows: [Int]) -> PremultipliedImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(columns.count * rows.count * 4)
        for y in rows {
            for x in columns {
                let i = (y * width + x) * 4
                pixels += rgba.pixels[i..<(i + 4)]
            }
        }
        return PremultipliedImage(RGBAImage(width: columns.count, height: rows.count, pixels: pixels))
    }

    func straight() -> StraightImage {
        var out = rgba.pixels
        let count = width * height
        rgba.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                if let s = src.baseAddress, let d = dst.baseAddress {
                    Premultiply.unpremultiply(s, into: d, count: count)
                }
            }
        }
        return StraightImage(RGBAImage(width: width, height: height, pixels: out))
    }
}
