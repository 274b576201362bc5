/// What a source is, as its name and its chunks say: it decides who gives the
/// lattice (insets, markers, cap-insets) and whether it has padding.
package enum SourceKind: String, Sendable, Codable, CaseIterable {
    case png
    /// A `.9.png` with Android's 1-px border markers.
    case ninePatch = "nine-patch"
    /// A PNG with an `npTc` chunk (aapt2's output): markers in the chunk, no border.
    case compiledNinePatch = "compiled-nine-patch"
    /// An Xcode asset catalog `NAME.imageset` folder.
    case imageSet = "imageset"

    /// A nine-patch of either form: it has padding and optical bounds.
    var isNinePatch: Bool { self == .ninePatch || self == .compiledNinePatch }

    /// The kind a path's name says (a compiled nine-patch is known only once read).
    package static func named(_ path: String) -> SourceKind {
        if ImageSet.isImageSet(path: path) { return .imageSet }
        return NinePatch.isNinePatch(path: path) ? .ninePatch : .png
    }
}
