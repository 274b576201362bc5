/// Which front end asks for a backend: each has its own rule for `auto`.
package enum BackendUse: Sendable, Equatable {
    /// One output of this size (`render`): `auto` takes the CPU below
    /// `singleOutputGPUPixels`, and a hardware GPU above it.
    case oneOutput(PixelSize)
    /// A manifest (`batch`): `auto` is the CPU on every host.
    case batch
    /// Renders on demand (`serve`): `auto` is hybrid on a hardware GPU.
    case serve
    /// The GPU held to the CPU (`parity`): always the GPU.
    case parity

    /// Outputs smaller than this, rendered one at a time (`render`), are drawn on
    /// the CPU by `auto` even where a GPU is: opening a GL context takes longer
    /// (65 ms on llvmpipe here; NVIDIA's driver is commonly slower to start) than
    /// the CPU takes to draw them (about 2 ms per megapixel, and encoding, which
    /// both backends do on the CPU, dominates). Batches and serve open the GPU
    /// once for many outputs, so this does not apply to them.
    package static let singleOutputGPUPixels = 1 << 24

    /// `auto`'s measured batch figures, for `doctor` and `--help`. Measured on an
    /// NVIDIA H100 node with 16 cores, hybrid was 0.70× the CPU on the 2,400-job
    /// bench manifest, 1.03× on 20,000 jobs, 0.83× on 400 HD outputs and 0.97×
    /// on 100 4K outputs; serve's `auto` keeps hybrid there (1.54× the CPU).
    package static let batchAutoFigures =
        "on an NVIDIA H100 node with 16 cores, hybrid was 0.70-1.03x the CPU in batch with encoding on the CPU; GPU encoding of PNGs (glslice deflate, the default since renderer 7) is not yet measured on a GPU"
}
