import Foundation
import GlsliceKit
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// What the routes answer: render answers (whole, or HEAD's headers only),
/// health, the preview page, refusals, and the one JSON shape.
extension GlsliceServer {
    /// A render answer; `headOnly` (HEAD) gives its status and headers with no
    /// body, so nothing is held against `--answer-mb`.
    func respond(to request: Request, headOnly: Bool = false) async -> Response {
        let answer = await service.answer(path: Substring(request.uri.path), query: request.uri.query.map { Substring($0) },
                                          ifNoneMatch: request.headers[.ifNoneMatch], accept: request.headers[.accept])
        switch answer {
        case .image(let image, let format, let etag):
            let bytes = image.readableBytes
            let headers: HTTPFields = [.contentType: format.mediaType, .eTag: etag, .cacheControl: Self.immutable, .vary: "Accept"]
            if headOnly {
                var response = Response(status: .ok, headers: headers)
                response.headers[.contentLength] = String(bytes)
                return response
            }
            guard answers.reserve(bytes) else {
                metrics.answersRefused.increment()
                return Self.refusalResponse(.answersFull)
            }
            // Held until written (or the connection is gone), so unread answers stay within --answer-mb.
            // Written in slices: the writer then waits while the socket is full, so the bytes are
            // still counted (and a drain still waits) until the kernel has taken nearly all of them;
            // one write of the whole buffer returned at once and left it all in NIO's queue.
            let answers = self.answers
            let body = ResponseBody(contentLength: bytes) { writer in
                defer { answers.release(bytes) }
                do {
                    var rest = image
                    while let slice = rest.readSlice(length: min(Self.sliceBytes, rest.readableBytes)), slice.readableBytes > 0 {
                        try await writer.write(slice)
                    }
                    try await writer.finish(nil)
                } catch {
                    answers.answerFailed()
                    throw error
                }
            }
            // Vary: the same URL answers WebP or PNG by Accept, so a cache must key on it.
            return Response(status: .ok, headers: headers, body: body)
        case .notModified(let etag):
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: Self.immutable, .vary: "Accept"])
        case .refused(let refusal):
            var response = Self.refusalResponse(refusal)
            response.headers[.vary] = "Accept"
            return response
        }
    }

    static let immutable = "public, max-age=31536000, immutable"
    /// An answer is handed to its connection this much at a time.
    static let sliceBytes = 256 << 10
    /// The page loads nothing from elsewhere; its script and style are inline.
    /// The preview page, saying which folder its command lines run from (the root, HTML-escaped).
    var previewPage: String {
        let escaped = options.root.path.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
        return String(decoding: PackageResources.preview_html, as: UTF8.self).replacingOccurrences(of: "__GLSLICE_ROOT__", with: escaped)
    }

    static let previewPolicy = "default-src 'self'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'"

    func health() -> Response {
        let load = service.load
        return Self.json(200, Health(status: "ok", backend: service.backendDescription, backendReason: service.autoReason,
                                     workers: service.pool.workers, queued: load.queued, rendering: load.running))
    }

    struct Health: Encodable {
        var status: String
        var backend: String
        /// Why `--backend auto` took the CPU over a software rasteriser, when it did.
        var backendReason: String?
        var workers: Int
        var queued: Int
        var rendering: Int
    }

    struct ErrorBody: Encodable {
        var error: String
    }

    static func refusalResponse(_ refusal: Refusal) -> Response {
        var response = json(refusal.statusCode, ErrorBody(error: refusal.message))
        if let retry = refusal.retryAfter { response.headers[.retryAfter] = String(retry) }
        if let allow = refusal.allow { response.headers[.allow] = allow }
        return response
    }

    /// One line of JSON and a newline.
    static func json<T: Encodable>(_ status: Int, _ value: T) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = (try? encoder.encode(value)) ?? Data("{}".utf8)
        bytes.append(0x0A)
        return Response(status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
