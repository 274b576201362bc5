import Foundation

/// The words for what goes wrong with files and folders, each condition
/// worded once here (as swift-argument-parser words its errors in one
/// generator); callers say which file and, where it differs, whose fault.
package enum FileErrors {
    // Reading (exit 66 unless the caller says otherwise).
    static func cannotRead(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.noInput, file: path, "cannot be read: \(reason)")
    }
    /// `open` failed with `code`: missing, leading out of the folder it must stay beneath, or unreadable.
    static func cannotOpen(_ path: String, _ code: Int32) -> GlsliceError {
        switch code {
        case ENOENT, ENOTDIR: GlsliceError(.noInput, file: path, "no such file")
        case EXDEV, ELOOP: GlsliceError(.noInput, file: path, "no such file beneath the folder (the path leads outside it)")
        default: cannotRead(path, String(cString: strerror(code)))
        }
    }
    static func noSuchFolder(_ path: String) -> GlsliceError {
        GlsliceError(.noInput, file: path, "no such folder")
    }
    static func isAFolderNotAFile(_ path: String) -> GlsliceError {
        GlsliceError(.noInput, file: path, "is a folder, not a file")
    }
    static func notARegularFile(_ path: String, kind: GlsliceError.Kind = .noInput) -> GlsliceError {
        GlsliceError(kind, file: path, "is not a regular file")
    }
    package static func notAFolder(_ path: String, kind: GlsliceError.Kind) -> GlsliceError {
        GlsliceError(kind, file: path, "is not a folder")
    }
    package static func cannotOpenFolder(_ path: String, folder: String? = nil, _ reason: String?, kind: GlsliceError.Kind) -> GlsliceError {
        GlsliceError(kind, file: path, "cannot open the folder\(folder.map { " \($0)" } ?? "")\(reason.map { ": \($0)" } ?? "")")
    }

    // Writing (exit 73).
    static func outputFolderMissing(_ path: String, folder: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "output folder \(folder) does not exist; make it first (mkdir -p \(folder.shellQuoted))")
    }
    static func leadsOutside(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "leads outside the output folder (through a link or ..)")
    }
    static func isAFolder(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "is a folder; give a file name")
    }
    /// `write` returned 0: no progress and no error.
    static func wroteNothing(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot write: nothing written")
    }
    /// A signing key file (`--key-file`) that cannot be read.
    package static func keyFileUnreadable(_ path: String) -> GlsliceError {
        GlsliceError(.noInput, file: path, "cannot be read: no such file, or not readable")
    }
    package static func cannotWrite(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot write: \(reason)")
    }
    static func cannotLinkIntoPlace(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot link into place: \(reason)")
    }
    static func cannotRenameIntoPlace(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot rename into place: \(reason)")
    }

    static func cannotFlush(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot flush to disk: \(reason)")
    }
    static func cannotCreateFile(_ path: String, in folder: String, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot create a file in \(folder): \(reason)")
    }
    /// `--out-dir` naming a file (the system would say only "File exists").
    static func outputFolderIsAFile(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "is a file, not a folder: --out-dir names the folder the outputs go to (made when missing)")
    }
    /// A folder `path` needs (`folder`, when it is not `path` itself) that cannot be made.
    /// The temporary folder an image set is written into, beside where it goes.
    static func cannotCreateFolderBeside(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot create the folder beside it: \(reason)")
    }
    /// A batch output's folder, which could not be opened beneath `--out-dir`.
    static func cannotOpenOutputFolder(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot open the folder of the output")
    }
    static func cannotCreateFolder(_ path: String, folder: String? = nil, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot create the folder\(folder.map { " \($0)" } ?? ""): \(reason)")
    }
    /// What a Foundation file error says, in the system's words (`strerror`)
    /// where an errno lies underneath, never "The operation could not be completed".
    package static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        let posix = ns.domain == NSPOSIXErrorDomain ? ns : (ns.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        if let posix, posix.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(posix.code))) }
        return ns.localizedDescription
    }
    static func readOnly(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "the file exists and is read-only; remove it or make it writable")
    }
    static func notWritableKind(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "is a block device or socket; glslice writes only files, character devices and FIFOs")
    }
    /// An output image set's folder that glslice will not replace.
    static func notAnImageSetFolder(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "exists and is not an image set folder; remove it or choose another output")
    }
    static func holdsForeignFile(_ path: String, _ entry: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "holds \(entry), which glslice did not write; "
                     + "optimize writes only into a new folder or an image set it could have written")
    }
}
