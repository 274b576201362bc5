import CFiles
import Foundation

/// A file that appears under its name only once complete, never partly written.
///
/// Where the kernel and file system allow it, the file is created unnamed
/// (`O_TMPFILE`) and linked into place at the end. Creating a named temporary
/// file takes the output folder's lock while ext4 allocates the inode, and the
/// rename takes it again; batch workers writing into one folder queued on that
/// lock (a quarter of a 2,400-job batch's time in `perf`). Unnamed, the inode
/// is allocated outside the lock and the folder is locked once, by the link.
/// Elsewhere (NFS, older kernels, no /proc) it falls back to a hidden
/// temporary name beside the target (`OutputFile.temporaryPrefix`) and `rename`.
///
/// Only regular files are replaced. A character device or FIFO already at the
/// path (`-o /dev/null`, a named pipe) is written straight to, as a shell
/// redirection would; anything else there (a folder, a block device, a
/// socket, a read-only file) is refused, never renamed over.
final class OutputFile {
    let descriptor: Int32
    /// The path in messages.
    private let path: String
    /// The folder the file goes in, open (`O_PATH`), and the file's name there:
    /// every later step works from this descriptor, so a folder swapped for a
    /// link after the check cannot move the file elsewhere.
    private let folder: Int32
    private let name: String
    /// The hidden name while the file is named but not yet in place.
    private var temporaryName: String?
    /// Written straight to an existing device or FIFO: nothing to name.
    private let direct: Bool
    /// `fsync` before the name appears, so a crash never leaves a named empty file.
    private let durable: Bool
    private var done = false
    /// Asked just before the file is named (the hybrid's race, issue 68): false
    /// means another copy of this output won, so this one is discarded unnamed.
    var mayName: (() -> Bool)?
    /// Told the complete file's byte count, modification time (ns) and folder (the descriptor it is
    /// named in, so what is written beside it stays where it goes) just before it is named: the
    /// resume index's line goes out first, so a file under its name always has one (a kill between
    /// the two leaves a line for no file, which `--resume` passes over).
    var willName: ((_ bytes: Int, _ modified: Int, _ folder: Int32) -> Void)?

    /// Every hidden temporary file glslice makes starts so; `sweepStale` removes leftovers.
    static let temporaryPrefix = ".glslice-"
    static let temporarySuffix = ".tmp"

    /// Linking an unnamed file by name goes through /proc (`AT_EMPTY_PATH` needs a capability).
    private static let canLinkUnnamed = access("/proc/self/fd", X_OK) == 0

    /// A file at `path`, as the shell would name it (its folder's links followed).
    convenience init(path: String, durable: Bool = false) throws {
        let (folder, name) = OutputFile.split(path)
        let fd = Glibc.open(folder, FileScope.pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR {
                throw FileErrors.outputFolderMissing(path, folder: folder)
            }
            throw FileErrors.cannotOpenFolder(path, folder: folder, systemError(), kind: .cannotWrite)
        }
        try self.init(folder: fd, name: name, path: path, durable: durable)
    }

    /// A file at `relative` beneath `scope`'s folder, as the kernel resolves
    /// it: a folder on the way that is a link out, or a `..` that climbs out,
    /// is refused. A link at the name itself is replaced, never followed.
    convenience init(_ relative: String, beneath scope: FileScope, durable: Bool = false) throws {
        let display = scope.folderPath.map { $0 + "/" + relative } ?? relative
        let (folder, name) = OutputFile.split(relative)
        let fd = scope.open(folder == "." && !relative.hasPrefix("./") ? "" : folder, FileScope.pathOnly | O_DIRECTORY)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw FileErrors.outputFolderMissing(display, folder: folder)
            case EXDEV, ELOOP: throw FileErrors.leadsOutside(display)
            default: throw FileErrors.cannotOpenFolder(display, folder: folder, systemError(), kind: .cannotWrite)
            }
        }
        try self.init(folder: fd, name: name, path: display, durable: durable)
    }

    /// Takes `folder` (closed with this file).
    private init(folder: Int32, name: String, path: String, durable: Bool) throws {
        self.folder = folder
        self.name = name
        self.path = path
        self.durable = durable
        do {
            guard !name.isEmpty, name != ".", name != ".." else {
                throw FileErrors.isAFolder(path)
            }
            var existing = stat()
            if fstatat(folder, name, &existing, AT_SYMLINK_NOFOLLOW) == 0 {
                switch existing.st_mode & S_IFMT {
                case S_IFREG, S_IFLNK:
                    // A regular file is replaced whole; so is a symlink itself (never what it points at).
                    if existing.st_mode & S_IFMT == S_IFREG
                        && (existing.st_mode & 0o222 == 0 || faccessat(folder, name, W_OK, 0) != 0) {
                        throw FileErrors.readOnly(path)
                    }
                case S_IFCHR, S_IFIFO:
                    let fd = openat(folder, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
                    guard fd >= 0 else { throw FileErrors.cannotWrite(path, systemError()) }
                    descriptor = fd
                    direct = true
                    return
                case S_IFDIR:
                    throw FileErrors.isAFolder(path)
                default:
                    throw FileErrors.notWritableKind(path)
                }
            }
            direct = false
            if OutputFile.canLinkUnnamed {
                let fd = gs_open_unnamed_at(folder)
                if fd >= 0 {
                    descriptor = fd
                    return
                }
                // Any failure (no O_TMPFILE here) falls through: a named temporary
                // file then succeeds or reports why the folder is unusable.
            }
            // A short name of its own, not the output's: an output name near NAME_MAX still fits.
            var fd: Int32 = -1
            var hidden = ""
            for _ in 0..<16 where fd < 0 {
                hidden = OutputFile.hiddenName()
                fd = openat(folder, hidden, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
                if fd < 0 && errno != EEXIST { break }
            }
            guard fd >= 0 else {
                throw FileErrors.cannotCreateFile(path, in: OutputFile.split(path).folder, systemError())
            }
            descriptor = fd
            temporaryName = hidden
        } catch {
            close(folder)
            throw error
        }
    }

    deinit { discard() }

    private static func hiddenName() -> String {
        "\(temporaryPrefix)\(String(UInt64.random(in: 0...UInt64.max), radix: 36))\(temporarySuffix)"
    }

    /// Writes `data` whole to `path` through an `OutputFile`: named only once
    /// complete; a device or FIFO there is written to, never replaced.
    static func write(_ data: Data, to path: String) throws {
        let file = try OutputFile(path: path)
        try writeAll(data, to: file.descriptor, name: path)
        try file.commit()
    }

    /// Folder and file name, by string (`URL` parsing showed in a batch's profile).
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.utf8.index(after: slash)...]))
    }

    /// Gives the complete file its name, replacing any file already there.
    func commit() throws {
        guard !done else { return }
        if direct {
            done = true
            close(folder)
            guard close(descriptor) == 0 else { throw FileErrors.cannotWrite(path, systemError()) }
            return
        }
        if let mayName, !mayName() {
            discard()
            return
        }
        if durable && fsync(descriptor) != 0 {
            throw FileErrors.cannotFlush(path, systemError())
        }
        if let willName {
            var status = stat()
            if fstat(descriptor, &status) == 0 {
                willName(Int(status.st_size), Int(status.modifiedNanoseconds), folder)
            }
        }
        try NamedOutputs.naming { try placeUnderName() }
        done = true
        close(descriptor)
        close(folder)
    }

    /// Links or renames the complete file to its name (counted by `NamedOutputs`).
    private func placeUnderName() throws {
        if let temporaryName {
            guard renameat(folder, temporaryName, folder, name) == 0 else {
                throw FileErrors.cannotRenameIntoPlace(path, systemError())
            }
            self.temporaryName = nil
        } else if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", folder, name, AT_SYMLINK_FOLLOW) != 0 {
            guard errno == EEXIST else {
                throw FileErrors.cannotLinkIntoPlace(path, systemError())
            }
            // Something is there already: link under a hidden name, then rename over it (atomic).
            let hidden = OutputFile.hiddenName()
            guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", folder, hidden, AT_SYMLINK_FOLLOW) == 0 else {
                throw FileErrors.cannotLinkIntoPlace(path, systemError())
            }
            guard renameat(folder, hidden, folder, name) == 0 else {
                let reason = systemError()
                unlinkat(folder, hidden, 0)
                throw FileErrors.cannotRenameIntoPlace(path, reason)
            }
        }
    }

    /// Closes without naming: an unnamed file vanishes, a temporary one is removed.
    func discard() {
        guard !done else { return }
        done = true
        close(descriptor)
        if let temporaryName { unlinkat(folder, temporaryName, 0) }
        close(folder)
    }

    /// Removes glslice's hidden temporary files in `folder` last changed before
    /// `date`: what a `kill -9` left. A file still being written is newer (its
    /// writes move its time forward), so a batch never removes another's.
    /// Returns how many it removed.
    @discardableResult
    static func sweepStale(in folder: String, olderThan date: Date) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(temporaryPrefix) && name.hasSuffix(temporarySuffix) {
            let path = folder + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9 < date.timeIntervalSince1970 else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }
}

/// Writes all of `data` to `descriptor`, retrying short writes and EINTR.
func writeAll(_ data: Data, to descriptor: Int32, name: String) throws {
    try data.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let wrote = Glibc.write(descriptor, base + offset, raw.count - offset)
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw FileErrors.cannotWrite(name, systemError()) }
            offset += wrote
        }
    }
}
