import NIOCore

/// A render request's answer, before it is HTTP.
public enum RenderAnswer: Sendable {
    case png(ByteBuffer, etag: String)
    case notModified(etag: String)
    case refused(Refusal)
}
