import Foundation
import GlsliceKit

extension SourceRoot {
    /// Why `relative` (from `file(named:)`) cannot be written: its folder is
    /// missing, is a file, or leads out of the root, or the name is a folder.
    /// A 409, the request's fault, not the server's; nil when it may be tried.
    func refusalToWrite(_ relative: String) -> Refusal? {
        let names = relative.split(separator: "/")
        let folder = names.dropLast().joined(separator: "/")
        if !folder.isEmpty {
            guard let status = scope.status(of: folder) else {
                return .noFolder(relative, folder)
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                return .notAFolder(relative, folder)
            }
        }
        if let status = scope.status(of: relative), status.st_mode & S_IFMT != S_IFREG {
            return .notAFile(relative)
        }
        return nil
    }
}
