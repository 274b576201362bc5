/// Where an output's pixels come from when it is encoded. Not `Sendable`:
/// `bands` may hold a GPU plan, which lives on its context's thread.
package enum Drawing {
    /// Drawn here, band by band, as the encoder asks (the CPU backend, and the
    /// GPU backend for `render`, whose one thread owns the context).
    case bands(any BandRenderer)
    /// Already drawn elsewhere: rows in memory (a rectangle of a GPU atlas).
    case rows(DrawnRows)
    /// Being drawn elsewhere, band by band (a large output on the GPU thread).
    case stream(BandStream)
}
