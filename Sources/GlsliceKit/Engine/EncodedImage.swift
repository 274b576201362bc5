/// What the encode step produced.
package struct EncodedImage: Sendable {
    /// Bytes written.
    package var byteCount: Int
    /// The PNG or WebP itself, for a `.memory` target.
    package var data: [UInt8]?
}
