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

/// One output for the encode stage.
struct EncodeWork: Sendable {
    var job: BatchJob
    var drawing: Drawing
}
