import GlsliceKit
import NIOCore

/// A render request's answer, before it is HTTP.
public enum ImageAnswer: Sendable {
    case image(ByteBuffer, format: ImageFormat, etag: String)
    case notModified(etag: String)
    case refused(Refusal)
}
