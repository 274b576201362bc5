import Foundation
import GlsliceKit

/// A file's identity and version, so a cached digest is used only while its
/// sources are unchanged (an edited file has a new size, mtime or ctime).
struct FileStamp: Sendable, Equatable {
    var path: String
    var identity: [Int64]

    init(path: String, in scope: FileScope) {
        self.path = path
        identity = Self.read(path, in: scope)
    }

    func isCurrent(in scope: FileScope) -> Bool { Self.read(path, in: scope) == identity }

    /// An image set's `Contents.json`, stamped before the set is read (the
    /// image it names is stamped as it is read: `SourceCache.resolve`'s
    /// `reading`), so the file is parsed once per render. Never the set's
    /// folder listing: other files there do not change the render, and a stamp
    /// each would make every URL as costly as the folder is large. Nil for a
    /// file that is not an image set.
    static func contents(of path: String, in scope: FileScope) -> FileStamp? {
        guard ImageSet.isImageSet(path: path) else { return nil }
        let folder = path.hasSuffix("/Contents.json") ? String(path.dropLast("/Contents.json".count)) : path
        return FileStamp(path: folder + "/Contents.json", in: scope)
    }

    private static func read(_ path: String, in scope: FileScope) -> [Int64] {
        guard let info = scope.status(of: path) else { return [] }
        return [Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size),
                Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)]
    }
}
