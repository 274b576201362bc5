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
/// temporary name beside the target and `rename`.
final class OutputFile {
    let descriptor: Int32
    private let path: String
    /// The hidden name while the file is named but not yet in place.
    private var temporaryPath: String?
    private var done = false

    /// Linking an unnamed file by name goes through /proc (`AT_EMPTY_PATH` needs a capability).
    private static let canLinkUnnamed = access("/proc/self/fd", X_OK) == 0

    init(path: String) throws {
        self.path = path
        let (folder, name) = OutputFile.split(path)
        if OutputFile.canLinkUnnamed {
            let fd = gs_open_unnamed(folder)
            if fd >= 0 {
                descriptor = fd
                return
            }
            // Any failure (no O_TMPFILE here, or a missing folder) falls through:
            // mkstemps then succeeds or reports why the folder is unusable.
        }
        var template = Array("\(folder)/.\(name).XXXXXX.tmp".utf8CString)
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
            let (folder, name) = OutputFile.split(path)
            let hidden = "\(folder)/.\(name).\(UInt32.random(in: 0...UInt32.max)).tmp"
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
}
