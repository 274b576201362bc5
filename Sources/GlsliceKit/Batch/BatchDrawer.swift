import Foundation

/// A draw stage on its own thread (the GPU's). It runs on the thread that
/// opened its backend, and never prepares or encodes.
protocol BatchDrawer {
    /// Draws what `input` brings until it is closed and drained, pushing each
    /// output to `output`; records the jobs it cannot draw.
    func run(_ input: BoundedQueue<BatchJob>, output: BoundedQueue<EncodeWork>) throws
    /// What it can draw, known before its first job: a job beyond it never reaches it.
    var limits: GPUContext.GLLimits? { get }
}

extension BatchDrawer {
    var limits: GPUContext.GLLimits? { nil }
}
