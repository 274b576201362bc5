/// Which front end asks for a backend: each has its own rule for `auto`.
package enum BackendUse: Sendable, Equatable {
    /// One output of this size (`render`): `auto` takes the CPU (`renderAutoFigures`).
    case oneOutput(PixelSize)
    /// A manifest (`batch`): `auto` is hybrid on a hardware GPU, as serve's.
    case batch
    /// Renders on demand (`serve`): `auto` is hybrid on a hardware GPU.
    case serve
    /// The GPU held to the CPU (`parity`): always the GPU.
    case parity

    /// Why `render`'s `auto` is the CPU at every size, for `doctor` and `--help`: on the
    /// NVIDIA H200 node a 20,000² render was 2-2.5x faster on the CPU backend, and GPU
    /// encoding, which could change that for giants, has not yet run on NVIDIA's driver.
    /// One output is one job: there is no second side to hide a slower GPU behind.
    package static let renderAutoFigures =
        "on an NVIDIA H200 a 20,000^2 render was 2-2.5x faster on the CPU; GPU encoding of giants is not yet measured on a GPU"

    /// Why `batch`'s and `serve`'s `auto` are hybrid on a hardware GPU, for `doctor` and
    /// `--help`: the hybrid's scheduler gives the GPU only the calls it finishes before the
    /// CPU side would (issue 68), so it is never far below the CPU; on llvmpipe, where `auto`
    /// takes the CPU, forced hybrid measured 0.99-1.16x the CPU in batch and 0.93x in serve
    /// (docs/BENCHMARKS-LOG.md).
    package static let batchAutoFigures =
        "hybrid's scheduler gives the GPU only the work it finishes first: 0.99-1.16x the CPU in batch and 0.93x in serve on llvmpipe, where auto takes the CPU; not yet measured on a GPU node"
}
