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

    /// Bytes of keys, digests and stamps held before the memo starts again: a
    /// bound, not an LRU. In bytes, not keys: 100,000 URLs with the longest
    /// allowed `lattice` held 320 MiB under a bound of 100,000 keys.
    static let capacityBytes = 16 << 20

    private let scope: FileScope
    private let entries = Locked<(table: [String: Entry], bytes: Int)>(([:], 0))

    init(scope: FileScope) { self.scope = scope }

    /// The entry for `key` while every file it stamped is unchanged.
    func entry(for key: String) -> Entry? {
        guard let entry = entries.withLock({ $0.table[key] }) else { return nil }
        return entry.stamps.allSatisfy { $0.isCurrent(in: scope) } ? entry : nil
    }

    func remember(_ key: String, _ entry: Entry) {
        let bytes = Self.bytes(key, entry)
        entries.withLock { entries in
            if entries.bytes + bytes > Self.capacityBytes {
                // Its table's storage goes too, so memory after a reset is back near empty.
                entries = ([:], 0)
            }
            if let old = entries.table.updateValue(entry, forKey: key) { entries.bytes -= Self.bytes(key, old) }
            entries.bytes += bytes
        }
    }

    /// What one entry holds, near enough: its strings' bytes, its stamps and the table's overhead.
    static func bytes(_ key: String, _ entry: Entry) -> Int {
        96 + key.utf8.count + entry.digest.utf8.count + entry.stamps.reduce(0) { $0 + 64 + $1.path.utf8.count }
    }

    /// Keys held and the file stamps they keep, all told.
    var size: (keys: Int, stamps: Int, bytes: Int) {
        entries.withLock { ($0.table.count, $0.table.values.reduce(0) { $0 + $1.stamps.count }, $0.bytes) }
    }
}
