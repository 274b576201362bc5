/// Names each output by the file it is: its folder's identity (device and
/// inode, so two spellings of one folder through a link are one) and its file
/// name's bytes (so NFC and NFD names, two files to the kernel, stay two).
/// A batch refuses a second job for the same key: two jobs writing one file
/// would race. Eight bytes a job, whatever the paths' lengths.
struct OutputKeys {
    /// Folder path → identity, for the few folders a manifest writes into.
    private var folders: [[UInt8]: FileIdentity?] = [:]
    private static let maxFolders = 4096

    /// `outputScope`: the output folder, open, when outputs stay inside it.
    mutating func key(for job: ManifestJob, outputScope: FileScope?) -> Int {
        key(output: job.output, inside: job.outputInside, outputScope: outputScope)
    }

    /// `output`, and `inside` it relative to the output folder (as `ManifestJob` holds them).
    mutating func key(output: String, inside: String?, outputScope: FileScope?) -> Int {
        var (folder, name) = OutputFile.split(inside ?? output)
        var scope = FileScope.anywhere
        if let inside, let outputScope {
            scope = outputScope
            if folder == "." && !inside.hasPrefix("./") { folder = "" }
        }
        let folderBytes = Array(folder.utf8)
        let identity: FileIdentity?
        if let known = folders[folderBytes] {
            identity = known
        } else {
            identity = scope.identity(of: folder)
            if folders.count >= Self.maxFolders { folders.removeAll(keepingCapacity: true) }
            folders[folderBytes] = identity
        }
        var hasher = Hasher()
        if let identity {
            hasher.combine(identity)
        } else {
            hasher.combine(folderBytes) // not made yet: no link can lead to it either
        }
        hasher.combine(Array(name.utf8))
        return hasher.finalize()
    }
}
