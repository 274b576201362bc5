/// The one premultiply/unpremultiply pair every backend shares (docs/RENDERING.md §4),
/// so CPU and GPU outputs can only differ in sampling, never in alpha maths.
enum Premultiply {
    /// `p = (c·a + 127) / 255`, integer division.
    @inline(__always)
    static func premultiply(_ c: UInt8, alpha a: UInt8) -> UInt8 {
        UInt8((UInt32(c) * UInt32(a) + 127) / 255)
    }

    /// `a = 0` gives 0; else `min(255, (p·255 + a/2) / a)`.
    @inline(__always)
    static func unpremultiply(_ p: UInt8, alpha a: UInt8) -> UInt8 {
        if a == 0 { return 0 }
        return UInt8(min(255, (UInt32(p) * 255 + UInt32(a) / 2) / UInt32(a)))
    }

    /// Premultiplies straight RGBA8 pixels in place.
    static func premultiplyInPlace(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        var i = 0
        let n = pixels.count
        while i + 3 < n {
            let a = pixels[i + 3]
            if a != 255 {
                pixels[i] = premultiply(pixels[i], alpha: a)
                pixels[i + 1] = premultiply(pixels[i + 1], alpha: a)
                pixels[i + 2] = premultiply(pixels[i + 2], alpha: a)
            }
            i += 4
        }
    }

    /// Writes the straight form of premultiplied RGBA8 `source` into `destination`
    /// (which may be the same memory). A zero alpha gives (0,0,0,0).
    static func unpremultiply(
        _ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        var i = 0
        while i < count * 4 {
            let a = source[i + 3]
            if a == 255 {
                destination[i] = source[i]
                destination[i + 1] = source[i + 1]
                destination[i + 2] = source[i + 2]
            } else if a == 0 {
                destination[i] = 0
                destination[i + 1] = 0
                destination[i + 2] = 0
            } else {
                destination[i] = unpremultiply(source[i], alpha: a)
                destination[i + 1] = unpremultiply(source[i + 1], alpha: a)
                destination[i + 2] = unpremultiply(source[i + 2], alpha: a)
            }
            destination[i + 3] = a
            i += 4
        }
    }
}
