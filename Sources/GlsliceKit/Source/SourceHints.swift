import Foundation

/// What a source says about its own drawing, which the plan honours over the
/// request's defaults (never over what the request states explicitly, except
/// the lattice, which insets may not contradict).
package struct SourceHints: Sendable, Equatable {
    /// Who gave the lattice, for the message that refuses insets beside it.
    package enum LatticeOwner: Sendable, Equatable {
        case markers, capInsets
    }

    /// The lattice from `.9.png`/`npTc` markers or image-set cap-insets; nil means the request's insets.
    package var lattice: Lattice?
    package var latticeOwner: LatticeOwner
    /// The source's own scale (an image set's variant); nil means the file name or the request.
    package var scale: Double?
    /// The output scale when the request gives none (an image set draws at @1x); nil means the source scale.
    var defaultOutputScale: Double?
    /// The mode when the request leaves both axes `auto`: an image set's centre mode, `stretch` for a nine-patch.
    package var defaultMode: ResizeMode?
    /// Whatever besides the file's bytes and the request decides the pixels, for job digests.
    var recipe: SourceRecipe
    /// A nine-patch's padding and optical bounds (nil for other sources).
    package var ninePatch: NinePatchBounds?
    /// Read as a plain PNG from standard input, but its border looks like
    /// nine-patch markers (`--nine-patch` reads them): worth a warning.
    var looksLikeNinePatch = false

    init(lattice: Lattice? = nil, latticeOwner: LatticeOwner = .markers, scale: Double? = nil,
                defaultOutputScale: Double? = nil, defaultMode: ResizeMode? = nil, recipe: SourceRecipe = .plain) {
        self.lattice = lattice
        self.latticeOwner = latticeOwner
        self.scale = scale
        self.defaultOutputScale = defaultOutputScale
        self.defaultMode = defaultMode
        self.recipe = recipe
    }

    /// The lattice a request draws with, by the one rule every caller follows:
    /// the source's own (markers, cap-insets); a nine-patch's stretch runs
    /// replaced by `runs` (an edit to its markers, docs/RENDERING.md §7); else
    /// what `insets` or `runs` give a plain PNG. Insets beside a source's own
    /// lattice, or runs beside an image set's cap-insets, are refused.
    func drawnLattice(width: Int, height: Int, insets: Insets, runs: LatticeRuns?, sourceScale: Double) throws -> Lattice {
        if let own = lattice {
            guard insets == .zero else { throw UsageErrors.insetsBesideSourceLattice(fromMarkers: latticeOwner == .markers) }
            guard let runs else { return own }
            guard latticeOwner == .markers else { throw UsageErrors.insetsBesideSourceLattice(fromMarkers: false) }
            return try Lattice(width: width, height: height, insets: .zero, runs: runs, sourceScale: sourceScale)
        }
        return try Lattice(width: width, height: height, insets: insets, runs: runs, sourceScale: sourceScale)
    }

    /// A `.9.png` or `npTc` source: its markers give the lattice, and it stretches
    /// unless the request names a mode (Android never tiles a nine-patch).
    package static func ninePatch(_ lattice: Lattice, _ bounds: NinePatchBounds) -> SourceHints {
        var hints = SourceHints(lattice: lattice, latticeOwner: .markers, defaultMode: .stretch, recipe: .ninePatch)
        hints.ninePatch = bounds
        return hints
    }
}
