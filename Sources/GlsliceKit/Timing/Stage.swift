/// The stages a job passes through, in order. A batch's `--stats` and serve's
/// `/metrics` report each one's busy time, so an operator sees the bottleneck.
package enum Stage: String, CaseIterable, Sendable {
    /// Resume check, source, plan, digest.
    case prepare
    /// Drawing pixels: the CPU drawer's making (its taps) and its rows, or the GL thread's
    /// uploads and draw calls.
    case draw
    /// The GL thread waiting: for jobs to draw, or for memory the encoders still hold.
    case drawWait = "draw-wait"
    /// Reading pixels back from the GPU. A synchronous read also waits there for
    /// the draw calls to finish, so on a GPU most of the drawing shows up here.
    case readBack = "read-back"
    /// The GL thread encoding `fast` PNGs with compute passes (issue 43): colours,
    /// scanlines, tokens and their bits, the counts and stream read back.
    case gpuEncode = "gpu-encode"
    /// Of `gpu-encode`, the GL thread's own work: everything outside GL calls (records,
    /// Huffman tables, layout, PNG framing, copies), which must stay a sliver of the CPU's
    /// draw and encode time per output for one thread to feed a GPU (issue 52).
    case gpuOwn = "gpu-own"
    /// Unpremultiplying, palette, scanlines, deflate and the PNG's chunks (or WebP's encoder).
    case encode
    /// Opening, writing, naming (and with `--fsync` flushing) files, and the results line.
    case write
}
