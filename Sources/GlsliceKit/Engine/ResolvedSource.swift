/// A source ready to plan: its decoded pixels and slicing facts, and the key
/// that names it in digests and in the GPU's texture cache.
package struct ResolvedSource: Sendable {
    package var source: SourceImage
    package var key: SourceKey
    /// Every source pixel has alpha 255 (computed once, for the encode step's opacity rule).
    var isOpaque: Bool
    /// The source's line classes where a cache worked them out (nil: worked out when asked).
    private var cachedClasses: LineClasses?

    package init(source: SourceImage, key: SourceKey) {
        self.init(source: source, key: key, isOpaque: source.image.rgba.isOpaque)
    }

    init(source: SourceImage, key: SourceKey, isOpaque: Bool, lineClasses: LineClasses? = nil) {
        self.source = source
        self.key = key
        self.isOpaque = isOpaque
        cachedClasses = lineClasses
    }

    package var image: PremultipliedImage { source.image }

    /// Per source row and column, the first line equal to it (`RepeatMap`).
    var lineClasses: LineClasses { cachedClasses ?? LineClasses(source.image) }
}

extension ResolvedSource {
    /// Resolves `input` without a cache (one render): a PNG, a nine-patch or an
    /// image set's variant for `outputScale`, hashing each file it reads.
    /// `scope`: where files are opened (beneath a server's root, `input` is relative to it).
    /// `ninePatch`: read `input`'s border as markers whatever its name (standard input).
    /// `keyed`: hash the files for the key; a lone render, which records no
    /// digest and caches nothing, passes false and gets a key that names nothing.
    package static func load(input: String, outputScale: Double?, maxPixels: Int,
                            scope: FileScope = .anywhere, ninePatch: Bool = false, keyed: Bool = true) throws -> ResolvedSource {
        var contentHash = ""
        let source = try SourceResolver.resolve(path: input, outputScale: outputScale, scope: scope) { file in
            let data = try PNGDecoder.readInput(file, in: scope)
            if keyed { contentHash = JobDigest.sha256Hex(data) }
            return try SourceImage.decode(data: data, path: file, maxPixels: maxPixels, ninePatch: ninePatch)
        }
        return ResolvedSource(source: source, key: SourceKey(contentHash: contentHash, recipe: source.hints.recipe))
    }
}
