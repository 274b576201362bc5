import CEGL

/// The GPU session's cell textures shared between jobs of one source: a
/// least-recently-used cache held to a byte share of the GPU budget and to a
/// count (each entry is a GL object). It only keeps the books; the session
/// makes and deletes the textures on its GL thread.
final class TextureCache {
    struct Key: Hashable {
        var source: SourceKey
        var x: Range<Int>
        var y: Range<Int>
    }

    private var entries: [Key: (name: GLuint, lastUse: UInt64, bytes: Int)] = [:]
    private var clock: UInt64 = 0
    /// Bytes the cached textures hold.
    private(set) var bytes = 0
    /// The most textures cached, whatever their bytes.
    static let maxCount = 512

    /// Every cached texture (for the session's teardown).
    var names: [GLuint] { entries.values.map(\.name) }

    /// Whether the cache is over `limit` bytes or over its count.
    func isOver(bytes limit: Int) -> Bool { bytes > limit || entries.count > Self.maxCount }

    /// The texture cached under `key`, now the most recently used.
    func use(_ key: Key) -> GLuint? {
        clock += 1
        guard let hit = entries[key] else { return nil }
        entries[key] = (hit.name, clock, hit.bytes)
        return hit.name
    }

    func insert(_ key: Key, name: GLuint, bytes: Int) {
        clock += 1
        entries[key] = (name, clock, bytes)
        self.bytes += bytes
    }

    /// Removes the least recently used entries until within `limit` bytes and the
    /// count; returns the textures to delete and the bytes they held.
    func evict(downTo limit: Int) -> (names: [GLuint], bytes: Int) {
        var names: [GLuint] = [], freed = 0, count = entries.count
        for (key, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard bytes - freed > limit || count > Self.maxCount else { break }
            names.append(entry.name)
            entries[key] = nil
            freed += entry.bytes
            count -= 1
        }
        bytes -= freed
        return (names, freed)
    }
}
