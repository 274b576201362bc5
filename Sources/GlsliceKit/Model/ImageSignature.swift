/// The first bytes that tell the two formats glslice writes apart: a PNG's
/// 8-byte signature, and a WebP's RIFF header (`RIFF`, a length, `WEBP`).
package enum ImageSignature {
    package static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    package static func isPNG<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        bytes.prefix(8).elementsEqual(png)
    }

    package static func isWebP<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        bytes.count >= 12 && bytes.prefix(4).elementsEqual("RIFF".utf8) && bytes.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }
}
