import Foundation

/// Where `--resume` finds the job each finished output was made from (issue 71), so an output holds
/// only what a decoder needs: a 56-byte digest chunk was 6% of a small output's bytes, sent on every
/// download. Each batch process appends a line per output it names to a file of its own,
/// `.glslice-resume/<host>-<pid>-<start>.tsv` in that output's folder, so Slurm and Kubernetes shards
/// that write one folder never write one file. A line holds the output's name, job digest, pixel size,
/// byte count and modification time: `--resume` trusts it only while the file at that name still has
/// that byte count and time, so a file replaced or cut since is rendered again. An output with no line
/// (written before the index, or with `--digest-chunk`) is read as before: its tEXt or XMP record.
final class ResumeIndex: @unchecked Sendable {
    /// The folder, inside an output's folder, that holds the index files.
    static let folderName = ".glslice-resume"

    struct Entry: Equatable {
        var digest: String
        var size: PixelSize
        var bytes: Int
        var modified: Int
    }

    private let lock = NSLock()
    /// Each output folder's entries by output name, read once.
    private var folders: [String: [String: [Entry]]] = [:]
    /// This process's index file in each folder it wrote to (nil where it could not be opened).
    private var writers: [FolderKey: Int32?] = [:]
    private let fileName: String

    init() {
        var host = [CChar](repeating: 0, count: 256)
        let name = gethostname(&host, host.count) == 0 ? String(cString: host) : "host"
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" }.prefix(64))
        let start = Int(Date().timeIntervalSince1970 * 1_000_000_000)
        fileName = "\(safe)-\(getpid())-\(start).tsv"
    }

    deinit {
        for case let fd? in writers.values { close(fd) }
    }

    /// Records the output about to be named `path` in the folder open as `folder` (the descriptor
    /// the file is named through: a folder swapped for a link after it was opened never receives
    /// the index, round three's containment): its complete file's byte count and modification time
    /// (ns). An index that cannot be written costs only a later `--resume` its skip (the output is
    /// rendered again), so it fails nothing.
    func record(path: String, in folder: Int32, digest: String, size: PixelSize, bytes: Int, modified: Int) {
        let name = OutputFile.split(path).name
        var status = stat()
        guard !name.contains("\t"), !name.contains("\n"), fstat(folder, &status) == 0 else { return }
        let line = "\(name)\t\(digest)\t\(size.width)\t\(size.height)\t\(bytes)\t\(modified)\n"
        let key = FolderKey(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        lock.lock()
        defer { lock.unlock() }
        let fd: Int32?
        if let known = writers[key] {
            fd = known
        } else {
            mkdirat(folder, Self.folderName, 0o755)
            let index = openat(folder, Self.folderName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let opened = index >= 0 ? openat(index, fileName, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o644) : -1
            if index >= 0 { close(index) }
            fd = opened >= 0 ? opened : nil
            writers[key] = fd
        }
        guard let fd else { return }
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    }

    /// A folder by identity, not by path: the same folder under two spellings shares a file.
    private struct FolderKey: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// What the index says of the output at `path`, if a line names it and the file still has the
    /// byte count and modification time that line records.
    func finished(path: String) -> FinishedOutput? {
        let (folder, name) = OutputFile.split(path)
        guard let stat = Self.fileStatus(path) else { return nil }
        lock.lock()
        let entries: [String: [Entry]]
        if let known = folders[folder] {
            entries = known
        } else {
            entries = Self.read(folder: folder)
            folders[folder] = entries
        }
        lock.unlock()
        guard let entry = entries[name]?.last(where: { $0.bytes == stat.bytes && $0.modified == stat.modified }) else { return nil }
        return FinishedOutput(size: entry.size, digest: entry.digest)
    }

    /// Every index file's lines in `folder`, by output name; a line that does not parse is passed over.
    private static func read(folder: String) -> [String: [Entry]] {
        let indexFolder = folder + "/" + folderName
        var entries: [String: [Entry]] = [:]
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: indexFolder) else { return entries }
        for file in files.sorted() where file.hasSuffix(".tsv") {
            guard let text = try? String(contentsOfFile: indexFolder + "/" + file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count == 6, let width = Int(fields[2]), let height = Int(fields[3]), let bytes = Int(fields[4]),
                      let modified = Int(fields[5]) else { continue }
                entries[String(fields[0]), default: []].append(
                    Entry(digest: String(fields[1]), size: PixelSize(width: width, height: height), bytes: bytes, modified: modified))
            }
        }
        return entries
    }

    /// A regular file's byte count and modification time (ns); nil for anything else (a FIFO is never
    /// opened; a link is not followed: batch names its outputs by renaming files).
    private static func fileStatus(_ path: String) -> (bytes: Int, modified: Int)? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return (Int(status.st_size), Int(status.modifiedNanoseconds))
    }
}
