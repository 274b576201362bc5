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

    static let notFound = Refusal(statusCode: 404, message: "not found")
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
