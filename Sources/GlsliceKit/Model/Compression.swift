/// How the PNG encoder compresses (and, for WebP, which preset). Since renderer
/// version 7 the default is glslice's own deflate (`Deflate/RepeatDeflater.swift`):
/// the plan's repeats written as matches without searching, a small matcher for
/// the rest, rows filtered None or Up (`RowFilter`); the GPU's compute encoder
/// writes the same bytes. Against zlib 6 (the default before), on this VM: the
/// bench manifest 0.96x the bytes at 0.38-0.49x the encoder's CPU time, the HD set
/// 0.95x at 0.18x, the giants 0.73x at 0.15x (renderer 9, docs/BENCHMARKS-LOG.md).
public enum Compression: String, CaseIterable, Sendable, Codable {
    /// glslice's own deflate, as `default` writes it (the name it had before it was the
    /// default); for WebP, libwebp's fastest preset.
    case fast
    /// glslice's own deflate (`Deflate/RepeatDeflater.swift`); WebP preset 6.
    case `default`
    /// The smallest: each piece the smaller of zlib level 9 and glslice's deflate, at several
    /// times the encode time; an indexed image also tried grey, grey and alpha or RGB (`GreyReduction`).
    case small
    /// zlib level 6, the default before renderer version 7: for files byte-identical to
    /// an older glslice's, and as the benchmarks' yardstick. WebP: as `default`.
    case zlib

    public init(parsing text: String) throws {
        guard let value = Compression(rawValue: text.lowercased()) else {
            throw UsageErrors.notAChoice(text, of: Compression.allCases.map(\.rawValue), option: .compression)
        }
        self = value
    }

    /// Whether a PNG's image data is glslice's own deflate (the plan's repeats) rather than zlib's.
    var writesPlanRepeats: Bool { self == .fast || self == .default }

    /// Whether the encoder is told the plan's repeats and filters rows as `default` does:
    /// every level but `zlib`. `small` keeps, piece by piece, the smaller of zlib 9 and glslice's
    /// deflate on the same scanlines, so it is never larger than `default`; an image of one piece
    /// also tries its rows filtered as PNG optimizers filter them, by libdeflate (`SmallFilters`).
    var readsPlanRepeats: Bool { self != .zlib }
}
