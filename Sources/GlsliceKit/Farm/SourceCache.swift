import Foundation

/// Decoded sources shared by a batch's workers, keyed by path and file
/// identity (device, inode, size, modification time) so an edited file is
/// read again, and capped in bytes (least recently used goes first).
public final class SourceCache: @unchecked Sendable {
    public struct Identity: Hashable, Sendable {
        var path: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    /// A decoded source and the SHA-256 of its file, for job digests.
    public struct Entry: Sendable {
        public var source: SourceImage
        public var contentHash: String
        public var image: PremultipliedImage { source.image }
    }

    private struct Slot {
        var entry: Entry
        var bytes: Int
        var lastUse: UInt64
    }

    private let capacity: Int
    private let maxPixels: Int
    private var slots: [Identity: Slot] = [:]
    private var hashes: [Identity: String] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0
    private let lock = NSLock()

    public init(capacityBytes: Int, maxPixels: Int) {
        capacity = capacityBytes
        self.maxPixels = maxPixels
    }

    public var residentBytes: Int { lock.withLock { bytes } }

    static func identity(of path: String) throws -> Identity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw GlsliceError(.noInput, file: path, errno == ENOENT ? "no such file" : "cannot be read: \(systemError())")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw GlsliceError(.noInput, file: path, "is not a regular file") }
        return Identity(path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                        modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// The SHA-256 of the file at `path`, without decoding it (for `--resume`).
    public func contentHash(of path: String) throws -> String {
        let id = try Self.identity(of: path)
        if let hash = lock.withLock({ slots[id]?.entry.contentHash ?? hashes[id] }) { return hash }
        let hash = Self.hash(try PNGDecoder.readInput(path))
        lock.withLock {
            if hashes.count > 4096 { hashes.removeAll() } // identities only; a bound, not an LRU
            hashes[id] = hash
        }
        return hash
    }

    /// The decoded, premultiplied source at `path`, from the cache when its identity matches.
    public func source(at path: String) throws -> Entry {
        let id = try Self.identity(of: path)
        let hit: Entry? = lock.withLock {
            clock += 1
            guard var slot = slots[id] else { return nil }
            slot.lastUse = clock
            slots[id] = slot
            return slot.entry
        }
        if let hit { return hit }
        let data = try PNGDecoder.readInput(path)
        let source = try SourceImage.decode(data: data, path: path, maxPixels: maxPixels)
        let entry = Entry(source: source, contentHash: Self.hash(data))
        let image = source.image
        let size = image.rgba.pixels.count
        lock.withLock {
            guard size <= capacity, slots[id] == nil else { return }
            clock += 1
            slots[id] = Slot(entry: entry, bytes: size, lastUse: clock)
            bytes += size
            while bytes > capacity, let oldest = slots.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                bytes -= oldest.value.bytes
                slots[oldest.key] = nil
            }
        }
        return entry
    }

    static func hash(_ data: Data) -> String {
        var sha = SHA256()
        sha.update(data)
        return SHA256.hex(sha.finalize())
    }
}
