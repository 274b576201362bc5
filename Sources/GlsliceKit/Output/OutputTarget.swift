/// Where an encoder's bytes go: a file (named only once complete), stdout, a
/// descriptor the caller opened and will close (a pipe, a socket), or memory.
package enum OutputTarget: Sendable, Equatable {
    /// A file made atomically (`OutputFile`); `durable` flushes it to disk before it is named.
    case file(String, durable: Bool = false)
    /// A file at a path relative to a folder it may not leave (a batch's `--out-dir`).
    case contained(String, beneath: FileScope, durable: Bool = false)
    case standardOutput
    case descriptor(Int32)
    /// Kept in memory: the encoder's `memoryData` after `finish` (serve's answers).
    case memory

    /// `-` means standard output.
    init(_ path: String) {
        self = path == "-" ? .standardOutput : .file(path)
    }

    var displayName: String {
        switch self {
        case .file(let path, _): path
        case .contained(let path, let scope, _): scope.folderPath.map { $0 + "/" + path } ?? path
        case .standardOutput: "<stdout>"
        case .descriptor(let fd): "<descriptor \(fd)>"
        case .memory: "<memory>"
        }
    }
}
