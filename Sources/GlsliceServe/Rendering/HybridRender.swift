import GlsliceKit

/// A render in the hybrid's scheduler (serve's `hybrid`): the prepared job and
/// what its answer needs once either side has drawn it.
struct HybridRender: Sendable {
    /// A job's fixed cost in pixels, for sizing the GPU's calls (as batch's `BatchRunner.jobCostPixels`).
    static let jobCostPixels = 16_384

    var job: PreparedJob
    var digest: String
    var key: String
    var id: UInt64
    var file: String
    var started: ContinuousClock.Instant
    /// `--answer-mb` bytes a WebP's encoding holds (0 for a PNG).
    var held: Int
}
