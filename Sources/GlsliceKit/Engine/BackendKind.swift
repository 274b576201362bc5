/// Which backend draws: part of every job digest, since the two may differ by
/// 1 in a channel (docs/RENDERING.md §5), so a GPU output is never taken for a
/// CPU one by `--resume` or a cache.
package enum BackendKind: String, Codable, Sendable, CaseIterable {
    case cpu
    case gpu
}

extension Backend {
    /// The kind of this backend.
    package var kind: BackendKind { gpu == nil ? .cpu : .gpu }
}
