/// Which backend draws (what `batch --stats` and `/healthz` report). Not part
/// of the job digest: both write the same bytes (docs/RENDERING.md §5).
package enum BackendKind: String, Codable, Sendable, CaseIterable {
    case cpu
    case gpu
}
