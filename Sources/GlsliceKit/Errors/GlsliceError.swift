/// Every failure the library reports: one line for a person, one exit code for a script.
/// The words are written once per kind, in `UsageErrors`, `InputErrors`,
/// `FileErrors`, `UnavailableErrors` and `InternalErrors`.
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
    /// The request option the problem is about. The words name it as each
    /// front end spells it (`OptionStyle`): `--source-scale` on the command
    /// line, `"source-scale"` in a manifest, `source-scale` in a URL.
    public var option: RequestOption?
    /// The manifest line the job came from.
    public var manifestLine: ManifestLine?
    /// The source pixel the problem is at (a nine-patch marker); the message says it too.
    public var pixel: PixelPosition?
    /// What is wrong, without the subject: "must be positive, got '0x5'".
    public var message: String

    public init(_ kind: Kind, file: String? = nil, option: RequestOption? = nil, pixel: PixelPosition? = nil,
                _ message: String) {
        self.kind = kind
        self.file = file
        self.option = option
        self.pixel = pixel
        self.message = message
    }

    /// What a person reads: `[manifest:line: ][file: ][option ]message`, the
    /// option named in `style`.
    public func text(naming style: OptionStyle, withManifestLine: Bool = true) -> String {
        var parts: [String] = []
        if withManifestLine, let manifestLine { parts.append("\(manifestLine.manifest):\(manifestLine.number)") }
        if let file { parts.append(file) }
        let said = option.map { style.name($0) + " " + Self.naming(message, style) } ?? Self.naming(message, style)
        // Control characters are left for the front end to escape (a terminal) or encode (JSON).
        return (parts + [said]).joined(separator: ": ")
    }

    /// A message's other options, written `{option:lattice}`, named as `style` spells them.
    static func naming(_ message: String, _ style: OptionStyle) -> String {
        guard message.contains("{option:") else { return message }
        var text = message
        for option in RequestOption.allCases { text = text.replacingOccurrences(of: "{option:\(option.rawValue)}", with: style.name(option)) }
        return text
    }

    public var exitCode: Int32 { kind.exitCode }

    /// The line with options named as command-line flags, newlines as spaces.
    public var description: String { text(naming: .flag).replacingNewlines() }

    /// `error` as glslice words it: a `GlsliceError` as it is; anything else is
    /// a bug (internal, exit 70, HTTP 500) that names its cause.
    package static func from(_ error: any Error) -> GlsliceError {
        error as? GlsliceError ?? InternalErrors.unexpected(error)
    }

    /// The same error, now naming `file` (kept if it already names one).
    public func about(_ file: String) -> GlsliceError {
        var copy = self
        if copy.file == nil { copy.file = file }
        return copy
    }
}

extension GlsliceError.Kind {
    /// sysexits(3): the one table from a kind to an exit code.
    package var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .badInput: 65
        case .noInput: 66
        case .unavailable: 69
        case .internal: 70
        case .cannotWrite: 73
        }
    }
}
