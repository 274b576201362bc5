import Foundation
import Synchronization

/// Decoded sources shared by a batch's workers, keyed by path and file
/// identity (device, inode, size, modification time) so an edited file is
/// read again, and capped in bytes (least recently used goes first).
package final class SourceCache: Sendable {
    package struct Identity: Hashable, Sendable {
        var path: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    /// A decoded source and the SHA-256 of its file, for job digests.
    package struct Entry: Sendable {
        package var source: SourceImage
        var contentHash: String
        /// Every pixel has alpha 255, counted once per decode rather than once per job.
        var isOpaque: Bool
        /// The source's line classes, once per decode too (`RepeatMap`).
        var lineClasses: LineClasses
        package var image: PremultipliedImage { source.image }
    }

    private struct Slot {
        var entry: Entry
        var bytes: Int
        var lastUse: UInt64
    }

    /// What the cache holds, behind one mutex.
    private struct Contents {
        var slots: [Identity: Slot] = [:]
        /// Content hashes of files seen only by `--resume` (never decoded).
        var hashes: [Identity: String] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let capacity: Int
    private let maxPixels: Int
    /// Where sources are opened (a server's root, or anywhere).
    private let scope: FileScope
    private let contents = Locked(Contents())

    package init(capacityBytes: Int, maxPixels: Int, scope: FileScope = .anywhere) {
        capacity = capacityBytes
        self.maxPixels = maxPixels
        self.scope = scope
    }

    /// The paths of the sources held now, least recently used first (for tests).
    var residentPaths: [String] {
        contents.withLock { $0.slots.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key.path) }
    }

    /// The file at `path`, open, and its identity: the identity is the open
    /// file's, so what is read is what was looked up (no check-then-open by name).
    private func open(_ path: String) throws -> (descriptor: Int32, identity: Identity) {
        let (fd, info) = try scope.openForReading(path, regularOnly: true)
        return (fd, Identity(path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                             modified: info.modifiedNanoseconds))
    }

    /// The SHA-256 of the file at `path`, without decoding it (for `--resume`).
    func contentHash(of path: String) throws -> String {
        let (fd, id) = try open(path)
        defer { close(fd) }
        if let hash = contents.withLock({ $0.slots[id]?.entry.contentHash ?? $0.hashes[id] }) { return hash }
        let hash = Self.hash(try PNGDecoder.read(descriptor: fd, name: path))
        contents.withLock {
            if $0.hashes.count > 4096 { $0.hashes.removeAll() } // identities only; a bound, not an LRU
            $0.hashes[id] = hash
        }
        return hash
    }

    /// The decoded, premultiplied source at `path`, from the cache when its identity matches.
    package func source(at path: String) throws -> Entry {
        let (fd, id) = try open(path)
        defer { close(fd) }
        let hit: Entry? = contents.withLock { contents in
            contents.clock += 1
            guard var slot = contents.slots[id] else { return nil }
            slot.lastUse = contents.clock
            contents.slots[id] = slot
            return slot.entry
        }
        if let hit { return hit }
        let data = try PNGDecoder.read(descriptor: fd, name: path)
        let source = try SourceImage.decode(data: data, path: path, maxPixels: maxPixels)
        let entry = Entry(source: source, contentHash: Self.hash(data), isOpaque: source.image.rgba.isOpaque, lineClasses: LineClasses(source.image))
        let image = source.image
        let size = image.rgba.pixels.count
        contents.withLock { contents in
            guard size <= capacity, contents.slots[id] == nil else { return }
            contents.clock += 1
            contents.slots[id] = Slot(entry: entry, bytes: size, lastUse: contents.clock)
            contents.bytes += size
            while contents.bytes > capacity,
                  let oldest = contents.slots.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                contents.bytes -= oldest.value.bytes
                contents.slots[oldest.key] = nil
            }
        }
        return entry
    }

    /// What `input` draws (a PNG, a nine-patch or an image set's variant for
    /// `outputScale`) through this cache, and the digest key for it: the file's
    /// SHA-256, plus an image set's recipe when there is one.
    /// `reading` is told of each image file just before it is read (serve
    /// stamps it then, so an edit after the stamp is never taken for the old file).
    package func resolve(input: String, outputScale: Double?, reading: (String) -> Void = { _ in }) throws -> ResolvedSource {
        var contentHash = ""
        var opaque = true, classes: LineClasses?
        let source = try SourceResolver.resolve(path: input, outputScale: outputScale, scope: scope) { file in
            reading(file)
            let entry = try self.source(at: file)
            contentHash = entry.contentHash
            opaque = entry.isOpaque
            classes = entry.lineClasses
            return entry.source
        }
        let key = SourceKey(contentHash: contentHash, recipe: source.hints.recipe)
        // An image set's slicing may crop the file; only then are opacity and line classes worked out again.
        if case .imageSet(let recipe) = key.recipe, recipe.resizing != nil {
            return ResolvedSource(source: source, key: key)
        }
        return ResolvedSource(source: source, key: key, isOpaque: opaque, lineClasses: classes)
    }

    static func hash(_ data: Data) -> String { JobDigest.sha256Hex(data) }
}
