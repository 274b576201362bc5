import Hummingbird

/// What a request to one of the page's write routes must carry, against
/// cross-site request forgery: a page elsewhere can send a "simple" POST
/// (`text/plain`, no preflight) to 127.0.0.1, so a write is taken only as
/// `application/json` (which a cross-site page cannot send without a
/// preflight this server never grants) and only with an `Origin` that is this
/// server as the request names it (`Host`, itself checked by `KnownHosts`).
/// Browsers send `Origin` with every POST; a script sends it by hand.
enum SameOriginWrite {
    static func check(_ request: Request) throws {
        let type = request.headers[.contentType]?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else {
            throw Refusal.notJSONWrite(contentType: request.headers[.contentType] ?? "")
        }
        guard let host = request.head.authority, let origin = request.headers[.origin],
              origin.lowercased() == "http://" + host.lowercased() else {
            throw Refusal.foreignWrite(origin: request.headers[.origin] ?? "none")
        }
    }
}
