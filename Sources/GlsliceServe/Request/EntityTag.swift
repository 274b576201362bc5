import Foundation

/// A render's strong entity tag (its job digest, quoted) and `If-None-Match`.
struct EntityTag {
    let digest: String

    var header: String { "\"\(digest)\"" }

    /// Whether `ifNoneMatch` (`*`, or a list of tags; weak comparison, RFC 9110
    /// §13.1.2) matches this tag, so the answer is 304.
    func isMatched(by ifNoneMatch: String?) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { item in
            var item = item.trimmingCharacters(in: .whitespaces)
            if item.hasPrefix("W/") { item.removeFirst(2) }
            return item == "*" || item == header
        }
    }
}
