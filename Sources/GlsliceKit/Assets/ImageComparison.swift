import Foundation

/// `glslice compare`: how far two images are apart, per channel of straight
/// RGBA8 as decoded (what a person sees in the files), and a heat map of it.
public struct ImageComparison: Sendable {
    public var size: PixelSize
    /// The largest difference of any channel at any pixel (0–255).
    public var maxDifference: Int
    /// The mean over pixels of each pixel's largest channel difference.
    public var meanDifference: Double
    /// Pixels whose largest channel difference is above the tolerance.
    public var pixelsOver: Int
    public var tolerance: Int
    /// Per pixel, its largest channel difference.
    var differences: [UInt8]

    public var differ: Bool { pixelsOver > 0 }

    /// Decodes the PNGs at `first` and `second` (`-` is standard input, for one
    /// of them) and compares them; images of different sizes are refused (`.badInput`).
    public static func compareFiles(_ first: String, _ second: String, tolerance: Int,
                                    limits: Limits = Limits()) throws -> ImageComparison {
        let a = try decodeEither(first, maxPixels: limits.maxSourcePixels)
        let b = try decodeEither(second, maxPixels: limits.maxSourcePixels)
        return try compare(a, b, tolerance: tolerance, files: (first, second))
    }

    /// A PNG or a WebP, the formats glslice writes, told apart by their first bytes.
    private static func decodeEither(_ path: String, maxPixels: Int) throws -> StraightImage {
        let data = try PNGDecoder.readImageInput(path)
        do {
            if ImageSignature.isWebP(data) { return try WebPDecoder.decode(data: data, maxPixels: maxPixels) }
            return try PNGDecoder.decode(data: data, maxPixels: maxPixels)
        } catch let error as GlsliceError {
            throw error.about(path)
        }
    }

    package static func compare(_ a: StraightImage, _ b: StraightImage, tolerance: Int, files: (String, String)) throws -> ImageComparison {
        guard a.width == b.width, a.height == b.height else {
            throw InputErrors.sizesDiffer(files.0, "\(a.width)x\(a.height)", files.1, "\(b.width)x\(b.height)")
        }
        let count = a.width * a.height
        var differences = [UInt8](repeating: 0, count: count)
        var maxDifference = 0, total = 0, over = 0
        a.rgba.pixels.withUnsafeBufferPointer { pa in
            b.rgba.pixels.withUnsafeBufferPointer { pb in
                for i in 0..<count {
                    var d = 0
                    for c in 0..<4 { d = max(d, abs(Int(pa[i * 4 + c]) - Int(pb[i * 4 + c]))) }
                    differences[i] = UInt8(d)
                    maxDifference = max(maxDifference, d)
                    total += d
                    if d > tolerance { over += 1 }
                }
            }
        }
        return ImageComparison(size: PixelSize(width: a.width, height: a.height), maxDifference: maxDifference,
                               meanDifference: count > 0 ? Double(total) / Double(count) : 0, pixelsOver: over,
                               tolerance: tolerance, differences: differences)
    }

    /// A heat map: equal pixels dark grey, differences within the tolerance
    /// blue, above it from yellow to red as they grow (scaled to the largest).
    package func heatMap() -> PremultipliedImage {
        var pixels = [UInt8](repeating: 255, count: differences.count * 4)
        let top = max(1, maxDifference)
        for (i, d) in differences.enumerated() {
            let rgb: [UInt8]
            if d == 0 {
                rgb = [40, 40, 40]
            } else if Int(d) <= tolerance {
                rgb = [40, 90, 220]
            } else {
                let t = Double(Int(d) - tolerance) / Double(max(1, top - tolerance))
                rgb = [255, UInt8(max(0, min(255, 230 * (1 - t)))), 0]
            }
            pixels.replaceSubrange((i * 4)..<(i * 4 + 3), with: rgb)
        }
        return PremultipliedImage(RGBAImage(width: size.width, height: size.height, pixels: pixels))
    }

    public var summary: String {
        String(format: "%@ px: max difference %d, mean %.3f, %d pixels over the tolerance of %d",
               "\(size)", maxDifference, meanDifference, pixelsOver, tolerance)
    }
}
