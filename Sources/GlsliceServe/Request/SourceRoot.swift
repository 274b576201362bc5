import Foundation
import GlsliceKit

/// The folder a server reads sources from. A request names a source by its
/// path under the root, and the file is opened beneath the root's descriptor
/// as the kernel resolves it (`FileScope`): `..`, an escaped `%2e%2e` or
/// `%2f`, an absolute path, a symbolic link out (however raced), or a
/// Unicode spelling of a sibling folder is not found.
public struct SourceRoot: Sendable {
    /// The root with every symbolic link resolved (for messages, never for containment).
    public let path: String
    /// Where every source, image-set member and preview listing is opened.
    package let scope: FileScope

    public init(_ folder: String) throws {
        guard let resolved = realpath(folder, nil) else {
            throw FileErrors.cannotOpenFolder(folder, systemError(), kind: .noInput)
        }
        path = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw FileErrors.notAFolder(folder, kind: .noInput)
        }
        scope = try FileScope.beneath(path)
    }

    /// The escaped path after `/render/` as the relative path it names, or nil.
    /// Each segment is decoded on its own, so an escaped slash cannot join two.
    public func file(forEscaped escaped: Substring) -> String? {
        var names: [String] = []
        for segment in escaped.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let name = String(decoding: segment, as: UTF8.self).removingPercentEncoding, !name.utf8.contains(UInt8(ascii: "/")) else { return nil }
            names.append(name)
        }
        return file(named: names.joined(separator: "/"))
    }

    /// `relative` (already decoded) as a path under the root, or nil when it
    /// is not one: empty, absolute, or with an empty, `.` or `..` segment or a NUL.
    /// Whether it exists, and stays beneath the root, is the kernel's to say when it is opened.
    public func file(named relative: String) -> String? {
        // By bytes, as the kernel reads it: a "/" followed by a combining mark
        // is one Character to Swift, but still a separator to the kernel.
        let bytes = Array(relative.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else { return nil }
        let dot = UInt8(ascii: ".")
        let names = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard names.allSatisfy({ !$0.isEmpty && !$0.elementsEqual([dot]) && !$0.elementsEqual([dot, dot]) }) else { return nil }
        return relative
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

