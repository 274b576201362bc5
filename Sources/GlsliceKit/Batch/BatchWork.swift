import Foundation

/// A manifest job after the prepare stage: its plan and digest, and when it started.
struct BatchJob: Sendable {
    var manifest: ManifestJob
    var prepared: PreparedJob
    var started: Date
    /// Where the encoder writes it.
    var target: OutputTarget

    var output: String { manifest.output }
    var ninePatch: NinePatchBounds? { prepared.source.source.hints.ninePatch }
}

/// Where the encode stage finds a job's pixels.
enum BatchDrawing: Sendable {
    /// Not drawn yet: the encoder draws it on the CPU, band by band, as it encodes.
    case onCPU
    /// Drawn by the GPU thread: a rectangle of an atlas, or a stream of bands.
    case drawn(DrawnRows)
    case streaming(BandStream)
}

/// One output for the encode stage.
struct EncodeWork: Sendable {
    var job: BatchJob
    var drawing: BatchDrawing
}
