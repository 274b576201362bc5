/// Turns an input path into what to draw: a PNG (with `.9.png`/`npTc` markers
/// as hints), or an asset catalog image set's variant for the output scale with
/// its scale, slicing and centre mode as hints. Render and batch both come
/// here; it reads the request's output scale and changes nothing in it.
package enum SourceResolver {
    /// - Parameters:
    ///   - outputScale: the request's output scale, which picks an image set's variant (nil: @1x).
    ///   - load: decodes a PNG file (a batch passes its cache).
    ///   - scope: where the image set's `Contents.json` is opened (the PNGs are `load`'s).
    package static func resolve(path: String, outputScale: Double?, scope: FileScope = .anywhere,
                               load: (String) throws -> SourceImage) throws -> SourceImage {
        guard ImageSet.isImageSet(path: path) else { return try load(path) }
        let set = try ImageSet(path: path, in: scope)
        // An image set is drawn at @1x unless a scale is asked for; its variant says its own scale.
        let variant = set.variant(for: outputScale ?? 1)
        var source = try load(variant.file)
        source.hints.scale = variant.scale
        source.hints.defaultOutputScale = 1
        guard let resizing = variant.resizing else {
            source.hints.recipe = .imageSet(ImageSetRecipe(scale: variant.scale, resizing: nil))
            return source
        }
        source.hints.defaultMode = resizing.centerMode
        source.hints.recipe = .imageSet(ImageSetRecipe(scale: variant.scale, resizing: resizing))
        return try ImageSet.apply(resizing, to: source, file: variant.file)
    }
}
