import Foundation

/// A URL's query as decoded name–value pairs, in the order given. `+` reads
/// as a space, as browsers' forms and `URLSearchParams` write it.
struct QueryItems: Sendable {
    var pairs: [(name: String, value: String)]

    /// Nil when an escape is malformed or decodes to bytes that are not UTF-8.
    init?(raw: Substring?) {
        pairs = []
        guard let raw, !raw.isEmpty else { return }
        for part in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(halves[0]),
                  let value = Self.decode(halves.count > 1 ? halves[1] : "") else { return nil }
            pairs.append((name, value))
        }
    }

    /// The value of the one pair named `name` (the first, if there are several).
    subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// RFC 3986's unreserved characters stay; every other byte is %XX (upper case):
    /// one spelling per text, so that a signature does not depend on how a client escaped.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
