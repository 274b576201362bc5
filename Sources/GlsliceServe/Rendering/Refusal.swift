import GlsliceKit

/// A request that gets no image: its status, its one line for the client, and
/// when to retry. Every error an answer carries becomes one here, through the
/// one table from an error's kind to an HTTP status.
public struct Refusal: Error, Sendable, Equatable {
    public var statusCode: Int
    public var message: String
    public var retryAfter: Int?
    /// The methods the path answers, for a 405's `Allow` header.
    var allow: String?

    public init(statusCode: Int, message: String, retryAfter: Int? = nil) {
        self.statusCode = statusCode
        self.message = message
        self.retryAfter = retryAfter
    }

    // Every refusal serve words itself, in one place (the rest come from
    // `GlsliceError`s through `init(_:file:root:)`).

    static let notFound = Refusal(statusCode: 404, message: "not found")
    static let malformedEscape = Refusal(statusCode: 400, message: "the query has a malformed %-escape")
    static func timedOut(seconds: Double) -> Refusal {
        Refusal(statusCode: 503, message: "the render took longer than --timeout (\(formatNumber(seconds)) s); try again", retryAfter: 1)
    }
    static func queueFull(waiting: Int) -> Refusal {
        Refusal(statusCode: 503, message: "the render queue is full (\(waiting) waiting); try again", retryAfter: 1)
    }
    static let answersFull = Refusal(statusCode: 503, message: "too many answers are waiting to be read; try again", retryAfter: 1)
    static let webPEncodesFull = Refusal(statusCode: 503, message: "too many WebP encodes are running for --answer-mb; try again", retryAfter: 1)
    static func unknownHost(_ name: String) -> Refusal {
        Refusal(statusCode: 421, message: "this server is not known by the name '\(name)' (Host); start it with --host-name to answer it")
    }
    static func notJSONWrite(contentType: String) -> Refusal {
        Refusal(statusCode: 415, message: "the page's writes take Content-Type: application/json, got '\(contentType)'")
    }
    static func foreignWrite(origin: String) -> Refusal {
        Refusal(statusCode: 403, message: "the page's writes are taken only from the page itself (Origin must be http://HOST of this server, got '\(origin)')")
    }
    static func badBody(shape: String) -> Refusal { Refusal(statusCode: 400, message: "the body must be JSON: \(shape)") }
    static let notANinePatchName = Refusal(statusCode: 400, message: "the output must be a NAME.9.png under the root")
    static func notAnImageSet(_ file: String) -> Refusal { Refusal(statusCode: 400, message: "\(file) is not an .imageset folder") }
    static func noFolder(_ relative: String, _ folder: String) -> Refusal {
        Refusal(statusCode: 409, message: "\(relative): no folder \(folder) under the root (or it leads out of it)")
    }
    static func notAFolder(_ relative: String, _ folder: String) -> Refusal {
        Refusal(statusCode: 409, message: "\(relative): \(folder) is not a folder")
    }
    static func notAFile(_ relative: String) -> Refusal { Refusal(statusCode: 409, message: "\(relative) exists and is not a file") }
    /// A known path asked with a method it does not answer.
    static func methodNotAllowed(_ method: String, allowed: [String]) -> Refusal {
        var refusal = Refusal(statusCode: 405, message: "\(method) not allowed here; this path answers \(allowed.joined(separator: ", "))")
        refusal.allow = allowed.joined(separator: ", ")
        return refusal
    }
    static let badSignature = Refusal(statusCode: 403, message: "missing or wrong signature (sig)")
    /// The render threads' queue is full (a preview request, admitted as renders are).
    static let busy = Refusal(statusCode: 503, message: "the render queue is full; try again", retryAfter: 1)
    static let bug = Refusal(statusCode: 500, message: "internal error (a bug: please report it)")

    /// The HTTP status for each kind of `GlsliceError`: the one table.
    static func statusCode(for kind: GlsliceError.Kind) -> Int {
        switch kind {
        case .usage, .badInput: 400
        case .noInput: 404
        case .unavailable: 503
        case .cannotWrite, .internal: 500
        }
    }

    /// What a client is told of `error`: its words with options named as query
    /// parameters, the source by its path under the root and nothing else of
    /// the file system. A missing source is a plain 404, whatever the reason.
    init(_ error: any Error, file: String?, root: SourceRoot) {
        guard let error = error as? GlsliceError else {
            self = .bug
            return
        }
        let code = Self.statusCode(for: error.kind)
        guard code != 404 else {
            self = .notFound
            return
        }
        let about = file.map { error.about($0) } ?? error
        self.init(statusCode: code, message: root.redact(about.text(naming: .queryParameter)),
                  retryAfter: code == 503 ? 1 : nil)
    }
}
