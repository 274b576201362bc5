import Foundation
import GlsliceKit

/// `--bind`'s host resolved once, before anything listens: the server binds
/// the address found here, and whether it is loopback (so may serve without a
/// key, with the page and its writes) is decided from that address, never from
/// the text (`127.lan` may resolve to 0.0.0.0).
public struct BindResolution: Sendable, Equatable {
    /// The numeric address to bind.
    public var address: String
    /// True when every address the name resolves to is loopback (127.0.0.0/8, ::1).
    public var isLoopback: Bool

    /// Resolves `host` with `resolve` (the system's resolver by default).
    public init(host: String, resolve: (String) throws -> [String] = BindResolution.systemResolve) throws {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses = try resolve(bare)
        guard let first = addresses.first else {
            throw UsageErrors.bindResolvesToNothing(host)
        }
        address = first
        isLoopback = addresses.allSatisfy(Self.isLoopbackAddress)
    }

    /// The addresses `getaddrinfo` gives `host` for a TCP listener, numeric.
    public static func systemResolve(_ host: String) throws -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            throw UsageErrors.unresolvedBind(host, String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var found: [String] = []
        var entry = list
        while let info = entry?.pointee {
            var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if let address = info.ai_addr,
               getnameinfo(address, info.ai_addrlen, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST) == 0 {
                let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !found.contains(text) { found.append(text) }
            }
            entry = info.ai_next
        }
        return found
    }

    /// A numeric IPv4 address in 127.0.0.0/8, `::1`, or an IPv4-mapped loopback address.
    public static func isLoopbackAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF
        return mapped && bytes[12] == 127
    }
}
