import GlsliceKit

/// Request key → the digest it rendered to and the files that decided it, so
/// that a repeat (a 304, a cache hit) costs a `stat` per file, and an edited
/// source renders anew under the same URL.
final class RequestMemo: Sendable {
    struct Entry: Sendable {
        var digest: String
        /// What the digest was written as (a negotiated WebP may have fallen back to PNG).
        var format: ImageFormat
        var stamps: [FileStamp]
    }

    /// Keys held before the memo starts again: a bound, not an LRU.
    static let capacity = 100_000

    private let scope: FileScope
    private let entries = Locked<[String: Entry]>([:])

    init(scope: FileScope) { self.scope = scope }

    /// The entry for `key` while every file it stamped is unchanged.
    func entry(for key: String) -> Entry? {
        guard let entry = entries.withLock({ $0[key] }) else { return nil }
        return entry.stamps.allSatisfy { $0.isCurrent(in: scope) } ? entry : nil
    }

    func remember(_ key: String, _ entry: Entry) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
    }

    /// Keys held and the file stamps they keep, all told.
    var size: (keys: Int, stamps: Int) {
        entries.withLock { ($0.count, $0.values.reduce(0) { $0 + $1.stamps.count }) }
    }
}
