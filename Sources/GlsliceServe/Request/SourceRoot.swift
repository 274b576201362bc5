import Foundation
import GlsliceKit

/// The folder a server reads sources from. A request names a source by its
/// path under the root; one that would lead out of it (`..`, an escaped
/// `%2e%2e` or `%2f`, an absolute path, a symbolic link out) is not found.
public struct SourceRoot: Sendable {
    /// The root with every symbolic link resolved.
    public let path: String

    public init(_ folder: String) throws {
        guard let resolved = realpath(folder, nil) else {
            throw GlsliceError(.noInput, file: folder, "cannot open the source root: \(systemError())")
        }
        path = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw GlsliceError(.noInput, file: folder, "the source root must be a folder")
        }
    }

    /// The escaped path after `/render/` as the file it names, or nil. Each
    /// segment is decoded on its own, so an escaped slash cannot join two.
    public func file(forEscaped escaped: Substring) -> String? {
        var names: [String] = []
        for segment in escaped.split(separator: "/", omittingEmptySubsequences: false) {
            guard let name = String(segment).removingPercentEncoding, !name.isEmpty, name != ".", name != "..",
                  !name.contains("/"), !name.contains("\0") else { return nil }
            names.append(name)
        }
        return file(named: names.joined(separator: "/"))
    }

    /// `relative` (already decoded) as a file under the root, or nil when it
    /// does not exist or resolves outside it.
    public func file(named relative: String) -> String? {
        guard !relative.isEmpty, !relative.hasPrefix("/") else { return nil }
        guard let resolved = realpath(path + "/" + relative, nil) else { return nil }
        defer { free(resolved) }
        let target = String(cString: resolved)
        return target.hasPrefix(path.hasSuffix("/") ? path : path + "/") ? target : nil
    }

    /// `text` with the root's path taken out, so that no message tells a
    /// client where the server keeps its files.
    /// Only whole occurrences are taken: `ROOT/x` becomes `x` and `ROOT` alone
    /// `.`, but `ROOTx` stays; with `--root /` there is nothing to hide, and
    /// text is left as it is (replacing every `/` would mangle it).
    public func redact(_ text: String) -> String {
        guard path != "/" else { return text }
        var out = "", rest = Substring(text)
        while let found = rest.range(of: path) {
            out += rest[..<found.lowerBound]
            let after = rest[found.upperBound...]
            if after.first == "/" {
                rest = after.dropFirst()
            } else if let next = after.first, next.isLetter || next.isNumber || "._-".contains(next) {
                out += path // another name that begins like the root's
                rest = after
            } else {
                out += "."
                rest = after
            }
        }
        return out + rest
    }
}

