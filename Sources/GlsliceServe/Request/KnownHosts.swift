import Foundation

/// The names a server answers to (`Host`), against DNS rebinding: a page whose
/// name is made to resolve to 127.0.0.1 sends its own name as `Host`, so a
/// loopback server that answered it would hand that page its files. A loopback
/// server answers only loopback names and addresses and `--host-name`s; a
/// public one answers any name unless `--host-name` lists them.
public struct KnownHosts: Sendable, Equatable {
    /// Names given with `--host-name` (lower case, no port).
    public var names: [String]
    /// Whether only the names listed (and loopback ones) are answered.
    public var restricted: Bool

    public init(names: [String], loopbackServer: Bool) {
        self.names = names.map { $0.lowercased() }
        restricted = loopbackServer || !names.isEmpty
    }

    /// Whether a request whose `Host` is `authority` is answered. A request
    /// without `Host` (HTTP/1.0, a tool) is: browsers always send one.
    public func allows(_ authority: String?) -> Bool {
        guard restricted, let authority else { return true }
        guard let host = Self.hostName(authority) else { return false }
        return Self.isLoopbackName(host) || names.contains(host)
    }

    /// `name`, `name:port`, `[v6]` or `[v6]:port` → the lower-case name (v6 without brackets).
    static func hostName(_ authority: String) -> String? {
        let text = authority.lowercased()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        let name = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    /// `localhost` (and names beneath it, RFC 6761), or a loopback address literal.
    static func isLoopbackName(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        return BindResolution.isLoopbackAddress(host)
    }
}
