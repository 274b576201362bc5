import Foundation

/// One line on stderr, prefixed like every glslice message.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("glslice: warning: \(message)\n".utf8))
}
