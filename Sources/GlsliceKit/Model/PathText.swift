/// A path's folder and name, split as text at the last `/`.
///
/// Foundation's `deletingLastPathComponent` traps on a one-character path
/// (`a`, `-`), so glslice never calls it.
enum PathText {
    /// Everything before the last `/` (`"/"` for `/a`), or `""` when there is none.
    static func folder(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// Everything after the last `/` (a trailing `/` ignored).
    static func name(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }
}
