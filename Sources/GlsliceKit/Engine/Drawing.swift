/// Where an output's pixels come from when it is encoded: the one answer every
/// front end and both backends give, handed from a draw thread to an encoder.
package enum Drawing: Sendable {
    /// Not drawn yet: the encoder draws it on the CPU, band by band, as it
    /// encodes (the CPU backend, and the CPU side of `hybrid`).
    case onCPU
    /// Drawn elsewhere: rows in memory (a rectangle of a GPU atlas).
    case rows(DrawnRows)
    /// Being drawn elsewhere, band by band (a large output on the GPU thread).
    case stream(BandStream)
}
