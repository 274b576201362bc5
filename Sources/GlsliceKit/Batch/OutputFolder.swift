import Foundation

/// Where a batch's outputs go, and the one owner of their paths and folders:
/// how a manifest line's output is placed (inside the output folder unless
/// `--allow-outside-out-dir`), the output folder made and opened, each
/// output's folder made once, and stale temporary files swept once per folder.
package final class OutputFolder: Sendable {
    /// The folder as the user gave it (`--out-dir`), for messages; nil: the manifest's folder.
    let given: String?
    /// Relative outputs resolve against this, normalized.
    let url: URL
    /// Outputs may leave `url` (`--allow-outside-out-dir`); by default a manifest
    /// from elsewhere cannot write over files outside the folder it was given.
    let allowOutside: Bool
    private let folders = Locked(Folders())

    private struct Folders {
        var made: Set<String> = []
        var swept: Set<String> = []
    }

    init(given: String?, manifestFolder: URL, allowOutside: Bool) {
        self.given = given
        self.allowOutside = allowOutside
        url = URL(fileURLWithPath: normalizedPath(given.map { URL(fileURLWithPath: $0).path } ?? manifestFolder.path))
    }

    /// An output as a normalized path, and relative to the output folder when outputs must stay inside it.
    func place(_ entryOutput: String) throws -> (output: String, inside: String?) {
        // "z/", "z/." and "z/.." name folders: normalizing would quietly write a file named z (or its parent).
        let last = entryOutput.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard last != "", last != ".", last != ".." else { throw UsageErrors.outputIsAFolderName(entryOutput, ending: "/" + last) }
        let output = normalizedPath(Self.resolve(entryOutput, against: url))
        guard !allowOutside else { return (output, nil) }
        // By bytes, as the kernel compares names: never by Swift's canonical equivalence.
        let root = url.path
        let prefix = Array((root.hasSuffix("/") ? root : root + "/").utf8)
        guard output.utf8.starts(with: prefix) else {
            throw UsageErrors.outsideOutputFolder(entryOutput, root: root)
        }
        return (output, String(decoding: output.utf8.dropFirst(prefix.count), as: UTF8.self))
    }

    /// Makes the output folder the user named, where it is missing: the one place it is made.
    func create() throws {
        guard let given else { return }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: given, isDirectory: &isFolder), !isFolder.boolValue {
            throw FileErrors.outputFolderIsAFile(given)
        }
        do {
            try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
        } catch {
            throw FileErrors.cannotCreateFolder(given, FileErrors.reason(error))
        }
    }

    /// The output folder, open, when outputs must stay inside it (nil when
    /// they may go anywhere, or when it cannot be opened: each job then fails).
    func openScope() -> FileScope? {
        guard !allowOutside else { return nil }
        try? create()
        return try? FileScope.beneath(url.path)
    }

    /// Creates `output`'s folder once per batch, not once per job: beneath the
    /// output folder when the job must stay inside it (a link out on the way is
    /// refused, never followed), else where the path says.
    func ensureFolder(for output: String, target: OutputTarget) throws {
        let folder = OutputFile.split(output).folder
        if folders.withLock({ $0.made.contains(folder) }) { return }
        switch target {
        case .contained(let relative, let scope, _):
            let inside = OutputFile.split(relative)
            if inside.folder != "." || relative.hasPrefix("./") {
                try scope.makeFolders(inside.folder, for: output)
            }
        default:
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw FileErrors.cannotCreateFolder(output, folder: folder, FileErrors.reason(error))
            }
        }
        folders.withLock { _ = $0.made.insert(folder) }
    }

    /// The first time a batch meets an output's folder, it removes the hidden
    /// temporary files that an earlier, killed run left there.
    func sweepOnce(for output: String, olderThan started: Date) {
        let folder = OutputFile.split(output).folder
        if folders.withLock({ $0.swept.insert(folder).inserted }) { OutputFile.sweepStale(in: folder, olderThan: started) }
    }

    /// Joins by string: `URL.appendingPathComponent` was 2% of a batch of small jobs.
    static func resolve(_ path: String, against folder: URL) -> String {
        if path.hasPrefix("/") { return path }
        let base = folder.path
        return base.hasSuffix("/") ? base + path : base + "/" + path
    }
}

/// `path` with `.`, `..` and repeated slashes resolved by name alone (no file
/// system access, so a symlink is not followed): how outputs are compared.
/// Split by bytes, as the kernel splits: a `/` followed by a combining mark is
/// one `Character` to Swift but still a separator, and `..` + a combining mark
/// is a name of its own, not `..`.
func normalizedPath(_ path: String) -> String {
    let bytes = Array(path.utf8)
    let absolute = bytes.first == UInt8(ascii: "/")
    let dot = UInt8(ascii: ".")
    var parts: [ArraySlice<UInt8>] = []
    for part in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
        if part.elementsEqual([dot]) { continue }
        if part.elementsEqual([dot, dot]) {
            if let last = parts.last, !last.elementsEqual([dot, dot]) { parts.removeLast() } else if !absolute { parts.append(part) }
            continue
        }
        parts.append(part)
    }
    let joined = String(decoding: Array(parts.joined(separator: [UInt8(ascii: "/")])), as: UTF8.self)
    return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
}
