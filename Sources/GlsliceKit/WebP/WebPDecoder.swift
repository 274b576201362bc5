import CWebP
import Foundation

/// Decodes a WebP (any glslice writes, and lossy ones too) through libwebp
/// into straight RGBA8, refusing one above the pixel limit before allocating it.
package enum WebPDecoder {
    package static func decode(data: Data, maxPixels: Int) throws -> StraightImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        let status = data.withUnsafeBytes { raw in
            gs_webp_decode_limited(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count,
                                   UInt64(max(0, maxPixels)), &pixels, &width, &height)
        }
        defer { gs_webp_free(pixels) }
        switch Int(status) {
        case Int(GS_WEBP_OK): break
        case Int(GS_WEBP_TOO_LARGE):
            throw InputErrors.webPSourceOverLimit(width: Int(width), height: Int(height), limit: maxPixels)
        case Int(GS_WEBP_NOT_WEBP): throw InputErrors.notWebP()
        default: throw InputErrors.corruptWebP()
        }
        guard let pixels else { throw InternalErrors.noPixels(from: "libwebp") }
        let count = Int(width) * Int(height) * 4
        return StraightImage(RGBAImage(width: Int(width), height: Int(height),
                                       pixels: Array(UnsafeBufferPointer(start: pixels, count: count))))
    }
}
