import Foundation
import GlsliceKit

/// Signed render URLs: `sig` is the HMAC-SHA256 (hex) of the canonical path
/// and query, so a client cannot ask for sizes or sources it was not given.
/// The canonical form decodes every escape and re-escapes one way, and sorts
/// the query, so any client's spelling of the same URL signs the same.
public struct URLSigner: Sendable {
    public static let parameter = "sig"
    /// Shorter keys are refused: HMAC's strength is the key's.
    public static let minimumKeyBytes = 16

    let key: [UInt8]

    public init(key: Data) throws {
        guard key.count >= Self.minimumKeyBytes else {
            throw UsageErrors.shortKey(key.count, minimum: Self.minimumKeyBytes)
        }
        self.key = [UInt8](key)
    }

    /// The key file's bytes, less one trailing newline (an editor's or `echo`'s).
    public init(keyFile: String) throws {
        guard var data = FileManager.default.contents(atPath: keyFile) else {
            throw FileErrors.keyFileUnreadable(keyFile)
        }
        if data.last == 0x0A { data.removeLast() }
        if data.last == 0x0D { data.removeLast() }
        do { try self.init(key: data) } catch let error as GlsliceError { throw error.about(keyFile) }
    }

    /// `path` and `query` as sent (escaped); nil when an escape is malformed.
    static func canonical(path: Substring, query: QueryItems) -> String? {
        var segments: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = String(segment).removingPercentEncoding else { return nil }
            segments.append(QueryItems.encode(decoded))
        }
        let pairs = query.pairs.filter { $0.name != parameter }
            .map { QueryItems.encode($0.name) + "=" + QueryItems.encode($0.value) }.sorted()
        return segments.joined(separator: "/") + "?" + pairs.joined(separator: "&")
    }

    func mac(_ canonical: String) -> [UInt8] {
        SHA256.hmac(key: key, Array(canonical.utf8))
    }

    /// True when the query's `sig` is the MAC of the rest, compared in constant time (libcrypto's `CRYPTO_memcmp`).
    func isValid(path: Substring, query: QueryItems) -> Bool {
        guard let given = query[Self.parameter], let bytes = Self.hexBytes(given),
              let text = Self.canonical(path: path, query: query) else { return false }
        return SHA256.equalInConstantTime(bytes, mac(text))
    }

    /// `url` (absolute, or a path with its query) with `sig` appended; any `sig` it had is replaced.
    public func sign(url: String) throws -> String {
        let fragmentless = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let halves = fragmentless.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let head = halves[0]
        var path = head
        if let scheme = head.range(of: "://") {
            let afterHost = head[scheme.upperBound...].firstIndex(of: "/") ?? head.endIndex
            path = head[afterHost...]
        }
        guard path.hasPrefix("/render/") else {
            throw UsageErrors.notARenderURL(url)
        }
        guard let query = QueryItems(raw: halves.count > 1 ? halves[1] : nil) else {
            throw UsageErrors.malformedEscape(url, in: "query")
        }
        guard let text = Self.canonical(path: path, query: query) else {
            throw UsageErrors.malformedEscape(url, in: "path")
        }
        // Keep the client's spelling of the query, less an old signature however its name is escaped.
        let kept = halves.count > 1 ? halves[1].split(separator: "&").filter { !Self.isSignature($0) } : []
        let signature = Self.hex(mac(text))
        return head + "?" + (kept + ["\(Self.parameter)=\(signature)"]).joined(separator: "&")
    }

    /// True for a `name=value` pair whose name is `sig` once unescaped (`%73ig` too).
    static func isSignature(_ pair: Substring) -> Bool {
        let name = String(pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        return (name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name) == parameter
    }

    static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

