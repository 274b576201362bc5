import CFiles
import Foundation

/// Where glslice may open files: anywhere (the command line, a manifest's
/// inputs), or only beneath one folder (serve's `--root`, batch's
/// `--out-dir`). Beneath a folder the kernel resolves each path from the
/// folder's descriptor (`openat2` with `RESOLVE_BENEATH`), so containment does
/// not depend on comparing strings: a `..`, an absolute or outward symbolic
/// link, a link swapped in between check and open, or a Unicode spelling
/// that a string comparison would call equal cannot lead out. The file that
/// was checked is the file that is read.
package struct FileScope: Sendable, Equatable {
    /// The folder, open for as long as any copy of the scope lives.
    final class Folder: Sendable {
        let descriptor: Int32
        let path: String
        /// Resolve by the O_NOFOLLOW walk even where `openat2` works (tests).
        let walks: Bool

        init(descriptor: Int32, path: String, walks: Bool) {
            self.descriptor = descriptor
            self.path = path
            self.walks = walks
        }

        deinit { close(descriptor) }
    }

    let folder: Folder?

    /// Two scopes are one when they hold the same open folder.
    package static func == (a: FileScope, b: FileScope) -> Bool { a.folder === b.folder }

    /// Paths are opened as given, relative to the working directory.
    static let anywhere = FileScope(folder: nil)

    /// Paths are relative to `path`, a folder, and never lead out of it.
    package static func beneath(_ path: String) throws -> FileScope {
        try beneath(path, walks: false)
    }

    /// `walks`: resolve by the component walk that kernels without `openat2`
    /// get, which refuses every symbolic link (for tests of that path).
    static func beneath(_ path: String, walks: Bool) throws -> FileScope {
        let fd = Glibc.open(path, FileScope.pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: throw FileErrors.noSuchFolder(path)
            case ENOTDIR: throw FileErrors.notAFolder(path, kind: .noInput)
            default: throw FileErrors.cannotOpenFolder(path, systemError(), kind: .noInput)
            }
        }
        return FileScope(folder: Folder(descriptor: fd, path: path, walks: walks))
    }

    /// The folder files are kept beneath, as it was given; nil for `anywhere`.
    var folderPath: String? { folder?.path }

    /// Opens `path` with `flags`; −1 with `errno` set on failure (`EXDEV` or
    /// `ELOOP` for a path that would leave the folder).
    func open(_ path: String, _ flags: Int32, mode: mode_t = 0) -> Int32 {
        guard let folder else { return Glibc.open(path, flags | O_CLOEXEC, mode) }
        return gs_open_beneath(folder.descriptor, path, flags | O_CLOEXEC, UInt32(mode), folder.walks ? 1 : 0)
    }

    /// Opens a file to read, with what `fstat` says of it. Beneath a folder, or
    /// with `regularOnly`, only a regular file is read (a FIFO or device there
    /// is refused at once, never waited on); otherwise a pipe the user names
    /// (`<(cmd)`) is read too.
    func openForReading(_ path: String, regularOnly: Bool = false) throws -> (descriptor: Int32, status: stat) {
        let regularOnly = regularOnly || folder != nil
        let fd = open(path, regularOnly ? O_RDONLY | O_NONBLOCK | O_NOCTTY : O_RDONLY)
        guard fd >= 0 else { throw FileErrors.cannotOpen(path, errno) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = systemError()
            close(fd)
            throw FileErrors.cannotRead(path, reason)
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            close(fd)
            throw FileErrors.isAFolderNotAFile(path)
        }
        if regularOnly && type != S_IFREG {
            close(fd)
            throw FileErrors.notARegularFile(path)
        }
        return (fd, status)
    }

    /// What `fstat` says of the file `path` names (following links that stay
    /// inside the scope), or nil when nothing is there or the path leads out.
    package func status(of path: String) -> stat? {
        let fd = open(path, FileScope.pathOnly)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        return fstat(fd, &status) == 0 ? status : nil
    }

    /// The identity of what `path` names (see `status(of:)`).
    package func identity(of path: String) -> FileIdentity? { status(of: path).map(FileIdentity.init) }

    /// The folder `path` names (`""` for the scope's own folder): its identity
    /// and up to `limit` of its entries' names, in the order the file system
    /// gives them, without `.`, `..` and names that are not UTF-8. Nil when it
    /// is not a folder that can be read.
    package func listFolder(_ path: String, limit: Int) -> (identity: FileIdentity, names: [String])? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, let stream = fdopendir(fd) else {
            close(fd)
            return nil
        }
        defer { closedir(stream) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(stream) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(validatingCString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard let name, name != ".", name != ".." else { continue }
            names.append(name)
        }
        return (FileIdentity(status), names)
    }

    /// Creates the folder `path` and any missing folders on the way, each
    /// beneath the one before: a link on the way that leads out is refused.
    /// Errors name `output`, the file the folders are made for.
    func makeFolders(_ path: String, for output: String) throws {
        var done = ""
        for name in path.utf8.split(separator: UInt8(ascii: "/")).map({ String(decoding: $0, as: UTF8.self) }) where name != "." {
            let next = done.isEmpty ? name : done + "/" + name
            let fd = open(next, FileScope.pathOnly | O_DIRECTORY)
            if fd >= 0 {
                close(fd)
            } else if errno == ENOENT {
                let parent = open(done, FileScope.pathOnly | O_DIRECTORY)
                guard parent >= 0 else { throw Self.folderError(output, errno) }
                let made = mkdirat(parent, name, 0o777)
                let code = errno
                close(parent)
                guard made == 0 || code == EEXIST else { throw Self.folderError(output, code) }
                // Made (or raced by another worker): check it is a folder beneath.
                let check = open(next, FileScope.pathOnly | O_DIRECTORY)
                guard check >= 0 else { throw Self.folderError(output, errno) }
                close(check)
            } else {
                throw Self.folderError(output, errno)
            }
            done = next
        }
    }

    private static func folderError(_ path: String, _ code: Int32) -> GlsliceError {
        switch code {
        case EXDEV, ELOOP: FileErrors.leadsOutside(path)
        case ENOTDIR: FileErrors.notAFolder(path, kind: .cannotWrite)
        default: FileErrors.cannotCreateFolder(path, String(cString: strerror(code)))
        }
    }

    /// `O_PATH`: a descriptor that names a file without opening it for reading.
    static let pathOnly = gs_o_path()


    /// True where the kernel resolves beneath a folder itself (`openat2`, Linux 5.6).
    static var kernelResolves: Bool { gs_has_openat2() != 0 }
}
