import Foundation

/// Writes to stderr with `write(2)`, ignoring failure: a full or closed stderr
/// (`2>/dev/full`) must not turn an error report into a crash, as
/// `FileHandle.write` does.
func standardError(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let written = write(STDERR_FILENO, base + offset, raw.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// One line on stderr, prefixed like every glslice message.
func warn(_ message: String) {
    standardError("glslice: warning: \(message)\n")
}
