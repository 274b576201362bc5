/// Every failure the library reports: one line for a person, one exit code for a script.
///
/// Exit codes follow sysexits(3) so farm scripts can tell "fix the command"
/// from "fix the file" from "fix the machine".
public struct GlsliceError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The command line is wrong in itself (malformed value, unknown mode, zero size).
        case usage
        /// The input does not fit the request (corrupt PNG, insets outside it, over a limit).
        case badInput
        /// The input file does not exist or cannot be read.
        case noInput
        /// The output cannot be created or written.
        case cannotWrite
        /// A requested backend cannot run on this machine.
        case unavailable
        /// A bug or an impossible state.
        case `internal`
    }

    public var kind: Kind
    /// The file the problem is about, when there is one.
    public var file: String?
    public var message: String

    public init(_ kind: Kind, file: String? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.message = message
    }

    public var exitCode: Int32 {
        switch kind {
        case .usage: 64
        case .badInput: 65
        case .noInput: 66
        case .unavailable: 69
        case .internal: 70
        case .cannotWrite: 73
        }
    }

    /// `file: message`, or the message alone; always a single line.
    public var description: String {
        let text = message.replacingNewlines()
        guard let file else { return text }
        return "\(file): \(text)"
    }

    /// The same error, now naming `file` (kept if it already names one).
    public func about(_ file: String) -> GlsliceError {
        var copy = self
        if copy.file == nil { copy.file = file }
        return copy
    }
}

extension String {
    func replacingNewlines() -> String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
