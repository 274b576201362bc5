import CPNG
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
    private let path: String
    /// The hidden name while the file is named but not yet in place.
    private var temporaryPath: String?
    /// Written straight to an existing device or FIFO: nothing to name.
    private let direct: Bool
    /// `fsync` before the name appears, so a crash never leaves a named empty file.
    private let durable: Bool
    private var done = false

    /// Every hidden temporary file glslice makes starts so; `sweepStale` removes leftovers.
    static let temporaryPrefix = ".glslice-"
    static let temporarySuffix = ".tmp"

    /// Linking an unnamed file by name goes through /proc (`AT_EMPTY_PATH` needs a capability).
    private static let canLinkUnnamed = access("/proc/self/fd", X_OK) == 0

    init(path: String, durable: Bool = false) throws {
        self.path = path
        self.durable = durable
        let (folder, _) = OutputFile.split(path)
        var existing = stat()
        if lstat(path, &existing) == 0 {
            switch existing.st_mode & S_IFMT {
            case S_IFREG, S_IFLNK:
                // A regular file is replaced whole; so is a symlink itself (never what it points at).
                if existing.st_mode & S_IFMT == S_IFREG && (existing.st_mode & 0o222 == 0 || access(path, W_OK) != 0) {
                    throw GlsliceError(.cannotWrite, file: path, "the file exists and is read-only; remove it or make it writable")
                }
            case S_IFCHR, S_IFIFO:
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw GlsliceError(.cannotWrite, file: path, "cannot open for writing: \(systemError())") }
                descriptor = fd
                direct = true
                return
            case S_IFDIR:
                throw GlsliceError(.cannotWrite, file: path, "is a folder; give a file name")
            default:
                throw GlsliceError(.cannotWrite, file: path, "is a block device or socket; glslice writes only files, character devices and FIFOs")
            }
        }
        direct = false
        if OutputFile.canLinkUnnamed {
            let fd = gs_open_unnamed(folder)
            if fd >= 0 {
                descriptor = fd
                return
            }
            // Any failure (no O_TMPFILE here, or a missing folder) falls through:
            // mkstemps then succeeds or reports why the folder is unusable.
        }
        // A short name of its own, not the output's: an output name near NAME_MAX still fits.
        var template = Array("\(folder)/\(OutputFile.temporaryPrefix)XXXXXX\(OutputFile.temporarySuffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemps($0, 4) } ?? -1 }
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR {
                throw GlsliceError(.cannotWrite, file: path, "output folder \(folder) does not exist")
            }
            throw GlsliceError(.cannotWrite, file: path, "cannot create a file in \(folder): \(systemError())")
        }
        descriptor = fd
        temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fchmod(fd, 0o644)
    }

    deinit { discard() }

    /// Folder and file name, by string (`URL` parsing showed in a batch's profile).
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Gives the complete file its name, replacing any file already there.
    func commit() throws {
        guard !done else { return }
        if direct {
            done = true
            guard close(descriptor) == 0 else { throw GlsliceError(.cannotWrite, file: path, "cannot write: \(systemError())") }
            return
        }
        if durable && fsync(descriptor) != 0 {
            throw GlsliceError(.cannotWrite, file: path, "cannot flush to disk: \(systemError())")
        }
        if let temporaryPath {
            guard rename(temporaryPath, path) == 0 else {
                throw GlsliceError(.cannotWrite, file: path, "cannot rename into place: \(systemError())")
            }
            self.temporaryPath = nil
        } else if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0 {
            guard errno == EEXIST else {
                throw GlsliceError(.cannotWrite, file: path, "cannot link into place: \(systemError())")
            }
            // Something is there already: link under a hidden name, then rename over it (atomic).
            let (folder, _) = OutputFile.split(path)
            let hidden = "\(folder)/\(OutputFile.temporaryPrefix)\(UInt32.random(in: 0...UInt32.max))\(OutputFile.temporarySuffix)"
            guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, hidden, AT_SYMLINK_FOLLOW) == 0 else {
                throw GlsliceError(.cannotWrite, file: path, "cannot link into place: \(systemError())")
            }
            guard rename(hidden, path) == 0 else {
                let reason = systemError()
                unlink(hidden)
                throw GlsliceError(.cannotWrite, file: path, "cannot rename into place: \(reason)")
            }
        }
        done = true
        close(descriptor)
    }

    /// Closes without naming: an unnamed file vanishes, a temporary one is removed.
    func discard() {
        guard !done else { return }
        done = true
        close(descriptor)
        if let temporaryPath { unlink(temporaryPath) }
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
