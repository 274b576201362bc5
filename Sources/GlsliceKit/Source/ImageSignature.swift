/// The first bytes that tell the two formats glslice writes apart: a PNG's
/// 8-byte signature, and a WebP's RIFF header (`RIFF`, a length, `WEBP`).
enum ImageSignature {
    package static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func isPNG<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        bytes.prefix(8).elementsEqual(png)
    }

    static func isWebP<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        bytes.count >= 12 && bytes.prefix(4).elementsEqual("RIFF".utf8) && bytes.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }

    /// The name of another image format these bytes start with (JPEG, GIF,
    /// WebP, BMP, TIFF), so a wrong input is named for what it is; nil when
    /// none is recognised.
    static func otherFormat<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        func starts(_ prefix: [UInt8]) -> Bool { head.starts(with: prefix) }
        if starts([0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "GIF" }
        if isWebP(head) { return "WebP" }
        if starts(Array("BM".utf8)) && head.count >= 6 { return "BMP" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        return nil
    }
}
