import Foundation

/// `--results`: one JSON line per job, appended with `O_APPEND` and one
/// `write(2)` per line, so two batches sharing the file interleave whole lines
/// and never overwrite each other.
///
/// It refuses to touch a file that is not already a results file (the
/// manifest, a source PNG, anything else a typo could name), since opening
/// it for a new batch would truncate it.
final class ResultsLog: Sendable {
    let path: String
    private let descriptor: Int32

    /// Opens `path`; truncated first unless `append`. `manifest` is refused by identity.
    /// `-` is standard output, written as is.
    init(path: String, append: Bool, manifest: String) throws {
        self.path = path
        if path == "-" {
            descriptor = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)
            guard descriptor >= 0 else { throw FileErrors.cannotWrite("<stdout>", systemError()) }
            return
        }
        // Read-write, to look at what is there before truncating it.
        var fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        if fd < 0 && (errno == EACCES || errno == ENXIO) { fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC) }
        guard fd >= 0 else {
            throw FileErrors.cannotWrite(path, systemError())
        }
        do {
            var status = stat()
            guard fstat(fd, &status) == 0 else { throw FileErrors.cannotWrite(path, systemError()) }
            var manifestStatus = stat()
            if stat(manifest, &manifestStatus) == 0, manifestStatus.st_dev == status.st_dev, manifestStatus.st_ino == status.st_ino {
                throw UsageErrors.resultsIsTheManifest(path)
            }
            if status.st_mode & S_IFMT == S_IFREG && status.st_size > 0 {
                guard Self.looksLikeResults(fd) else {
                    throw UsageErrors.resultsIsForeign(path)
                }
                if !append && ftruncate(fd, 0) != 0 {
                    throw FileErrors.cannotWrite(path, systemError())
                }
            }
        } catch {
            close(fd)
            throw error
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// True when the file's first line is a JSON object with `line` and `status`,
    /// as every line this log writes is. The line is read up to the manifest's
    /// line limit plus room for a message, since a results line echoes its job.
    private static func looksLikeResults(_ fd: Int32) -> Bool {
        var head = [UInt8](repeating: 0, count: 2 << 20)
        let count = pread(fd, &head, head.count, 0)
        guard count > 0 else { return false }
        let first = head[0..<count].split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        guard let object = try? JSONSerialization.jsonObject(with: Data(first)) as? [String: Any] else { return false }
        return object["line"] != nil && object["status"] != nil
    }

    /// Appends one line; nil when written whole, else why not (a full disk).
    func append(_ line: String) -> String? {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        return bytes.withUnsafeBytes { raw in
            while true {
                let written = write(descriptor, raw.baseAddress, raw.count)
                if written == raw.count { return nil }
                if written < 0 && errno == EINTR { continue }
                // A short write of a regular file means no space.
                return written < 0 ? systemError() : "No space left on device"
            }
        }
    }
}
