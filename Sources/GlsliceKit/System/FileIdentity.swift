import Foundation

/// A file as the kernel knows it: device and inode. Two paths name one file
/// when these match, whatever their spelling (NFC or NFD, a symbolic link,
/// `a//b`); two spellings that Swift's `String` calls equal may be two files.
package struct FileIdentity: Hashable, Sendable {
    package var device: UInt64
    var inode: UInt64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// The identity of what `path` names (following links), or nil when nothing is there.
    static func of(_ path: String) -> FileIdentity? {
        var status = stat()
        return stat(path, &status) == 0 ? FileIdentity(status) : nil
    }
}
