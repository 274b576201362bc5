/// The words for what goes wrong with files and folders, each condition
/// worded once here (as swift-argument-parser words its errors in one
/// generator); callers say which file and, where it differs, whose fault.
package enum FileErrors {
    // Reading (exit 66 unless the caller says otherwise).
    package static func cannotRead(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.noInput, file: path, "cannot be read: \(reason)")
    }
    package static func notARegularFile(_ path: String, kind: GlsliceError.Kind = .noInput) -> GlsliceError {
        GlsliceError(kind, file: path, "is not a regular file")
    }
    package static func notAFolder(_ path: String, kind: GlsliceError.Kind) -> GlsliceError {
        GlsliceError(kind, file: path, "is not a folder")
    }
    package static func cannotOpenFolder(_ path: String, folder: String? = nil, _ reason: String, kind: GlsliceError.Kind) -> GlsliceError {
        GlsliceError(kind, file: path, "cannot open the folder\(folder.map { " \($0)" } ?? ""): \(reason)")
    }

    // Writing (exit 73).
    package static func outputFolderMissing(_ path: String, folder: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "output folder \(folder) does not exist")
    }
    package static func leadsOutside(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "leads outside the output folder (through a link or ..)")
    }
    package static func isAFolder(_ path: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "is a folder; give a file name")
    }
    package static func cannotWrite(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot write: \(reason)")
    }
    package static func cannotLinkIntoPlace(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot link into place: \(reason)")
    }
    package static func cannotRenameIntoPlace(_ path: String, _ reason: String) -> GlsliceError {
        GlsliceError(.cannotWrite, file: path, "cannot rename into place: \(reason)")
    }

    // A writer used wrongly (a bug, exit 70).
    package static func finishedTwice(_ name: String) -> GlsliceError {
        GlsliceError(.internal, file: name, "finish called twice")
    }
    package static func rowsMissing(_ name: String, written: Int, height: Int) -> GlsliceError {
        GlsliceError(.internal, file: name, "only \(written) of \(height) rows were written")
    }
}
