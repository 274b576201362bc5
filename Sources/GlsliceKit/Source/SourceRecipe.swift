import Foundation

/// What besides a PNG file's bytes decides the pixels and the slicing a source
/// draws with: typed, so a job digest hashes fields rather than Swift's
/// description of a struct.
package enum SourceRecipe: Codable, Hashable, Sendable {
    /// A PNG drawn as it is, sliced by the request.
    case plain
    /// A `.9.png` or a compiled `npTc` nine-patch: its markers slice it.
    case ninePatch
    /// An asset catalog image set's variant.
    case imageSet(ImageSetRecipe)
}

/// The image-set variant a source came from: its scale and its slicing.
package struct ImageSetRecipe: Codable, Hashable, Sendable {
    package var scale: Double
    var resizing: ImageSet.Resizing?

    /// Sorted-key JSON, the form a digest hashes.
    var canonicalJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
