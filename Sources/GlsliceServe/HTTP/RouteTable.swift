import Hummingbird

/// The methods each route pattern answers, recorded as the routes are added,
/// so that a request whose path is known but whose method is not gets 405
/// with `Allow` (RFC 9110 §15.5.6) rather than the router's 404.
struct RouteTable: Sendable {
    private var entries: [(pattern: String, method: HTTPRequest.Method)] = []

    mutating func record(_ method: HTTPRequest.Method, _ pattern: String) {
        entries.append((pattern, method))
    }

    /// The methods answered at `path` (patterns are exact or end in `/**`).
    func methods(at path: String) -> [HTTPRequest.Method] {
        entries.filter { entry in
            guard entry.pattern.hasSuffix("/**") else { return entry.pattern == path }
            let prefix = entry.pattern.dropLast(2)
            return path.hasPrefix(prefix) && path.count > prefix.count
        }.map(\.method)
    }
}
