import Foundation

/// A decoded source ready to render: premultiplied pixels, the file they came
/// from, and what the source itself says about how to draw it.
public struct SourceImage: Sendable {
    public var image: PremultipliedImage
    /// The PNG file the pixels came from (an image set's variant, not its folder).
    public var file: String
    public var hints: SourceHints

    public var size: PixelSize { PixelSize(width: image.width, height: image.height) }

    public init(image: PremultipliedImage, file: String, hints: SourceHints = SourceHints()) {
        self.image = image
        self.file = file
        self.hints = hints
    }

    /// Decodes `data` read from `path`: an `npTc` chunk is a compiled nine-patch,
    /// a `.9.png` name without one means raw Android border markers.
    public static func decode(data: Data, path: String, maxPixels: Int) throws -> SourceImage {
        do {
            let (straight, chunk) = try PNGDecoder.decodeWithNinePatchChunk(data: data, maxPixels: maxPixels)
            if let chunk {
                // Compiled by Android's resource compiler: border gone, markers in the chunk.
                let compiled = try NinePatch.compiled(chunk: chunk, width: straight.width, height: straight.height)
                return SourceImage(image: straight.premultiplied(), file: path,
                                   hints: SourceHints(lattice: compiled.lattice, latticeOwner: .markers))
            }
            guard NinePatch.isNinePatch(path: path) else { return SourceImage(image: straight.premultiplied(), file: path) }
            let patch = try NinePatch(parsing: straight)
            return SourceImage(image: patch.artwork.premultiplied(), file: path,
                               hints: SourceHints(lattice: patch.lattice, latticeOwner: .markers))
        } catch let error as GlsliceError {
            throw error.about(path)
        }
    }

    /// Reads and decodes `path` (`-` is standard input).
    public static func load(path: String, maxPixels: Int) throws -> SourceImage {
        try decode(data: PNGDecoder.readInput(path), path: path, maxPixels: maxPixels)
    }
}

/// What a source says about its own drawing, which the plan honours over the
/// request's defaults (never over what the request states explicitly, except
/// the lattice, which insets may not contradict).
public struct SourceHints: Sendable, Equatable {
    /// Who gave the lattice, for the message that refuses insets beside it.
    public enum LatticeOwner: Sendable, Equatable {
        case markers, capInsets

        var refusal: String {
            switch self {
            case .markers: "a .9.png's markers give its lattice; drop the insets"
            case .capInsets: "the image set's cap-insets give its lattice; drop the insets"
            }
        }
    }

    /// The lattice from `.9.png`/`npTc` markers or image-set cap-insets; nil means the request's insets.
    public var lattice: Lattice?
    public var latticeOwner: LatticeOwner
    /// The source's own scale (an image set's variant); nil means the file name or the request.
    public var scale: Double?
    /// The output scale when the request gives none (an image set draws at @1x); nil means the source scale.
    public var defaultOutputScale: Double?
    /// The mode when the request leaves both axes `auto` (an image set's centre mode).
    public var defaultMode: ResizeMode?
    /// Whatever besides the file's bytes and the request decides the pixels, for job digests.
    public var recipe: String

    public init(lattice: Lattice? = nil, latticeOwner: LatticeOwner = .markers, scale: Double? = nil,
                defaultOutputScale: Double? = nil, defaultMode: ResizeMode? = nil, recipe: String = "") {
        self.lattice = lattice
        self.latticeOwner = latticeOwner
        self.scale = scale
        self.defaultOutputScale = defaultOutputScale
        self.defaultMode = defaultMode
        self.recipe = recipe
    }
}
