import GlsliceKit

/// What the preview page's catalog and savers work in: the root they read and write beneath,
/// the limits on what they read, and the render pool their file work runs on.
struct PreviewFiles: Sendable {
    let root: SourceRoot
    let limits: Limits
    let pool: WorkerPool
}
