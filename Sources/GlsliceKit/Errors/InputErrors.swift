/// The words for an input that does not fit the request (`.badInput`: exit
/// 65, HTTP 400): a corrupt or oversized image, markers aapt2 would refuse,
/// an image set Xcode would not write, caps that do not fit. Each condition
/// is worded once here; callers add the file (`GlsliceError.about`).
package enum InputErrors {
    // MARK: Images

    /// libpng's or libwebp's own words, passed on as they are.
    static func decoderSays(_ text: String) -> GlsliceError { GlsliceError(.badInput, text) }
    static func corruptPNG(_ reason: String, file: String? = nil) -> GlsliceError {
        GlsliceError(.badInput, file: file, "corrupt PNG: \(reason)")
    }
    /// A first chunk that is not IHDR (libpng's own words for it say nothing to a user).
    static func firstChunkNotIHDR(_ file: String, type: String) -> GlsliceError {
        corruptPNG("the first chunk is '\(type)', but a PNG must start with IHDR", file: file)
    }
    static func corruptWebP() -> GlsliceError { GlsliceError(.badInput, "corrupt WebP: libwebp could not decode it") }
    static func notWebP() -> GlsliceError { GlsliceError(.badInput, "not a WebP file") }
    /// A source that is no PNG: empty, or another image format, named with the way out.
    static func notAPNG(empty: Bool, format: String?) -> GlsliceError {
        if empty { return GlsliceError(.badInput, "the file is empty (0 bytes), not a PNG") }
        guard let format else { return GlsliceError(.badInput, "not a PNG file (bad signature)") }
        return GlsliceError(.badInput, "a \(format) file, not a PNG: glslice reads PNG sources (and .9.png nine-patches); save or convert it as PNG")
    }
    /// A source file longer than any source within the pixel limit needs (`format`: PNG, WebP).
    static func fileTooLong(_ file: String, format: String, limit: Int) -> GlsliceError {
        GlsliceError(.badInput, file: file,
                     "the \(format) is larger than \(limit >> 20) MiB, more than any source within the pixel limit needs")
    }
    /// An output over `--max-output-pixels`.
    static func outputOverLimit(pixels: String, limit: Int) -> GlsliceError {
        GlsliceError(.badInput, "output \(pixels) px is above the limit of \(limit) pixels (--max-output-pixels)")
    }
    /// A WebP source over `--max-source-pixels`, known from its header.
    static func webPSourceOverLimit(width: Int, height: Int, limit: Int) -> GlsliceError {
        GlsliceError(.badInput, "the WebP's \(width)x\(height) px is above the limit of \(limit) pixels (--max-source-pixels)")
    }
    /// An output wider or taller than WebP can hold.
    static func webPOutputOverLimit(size: PixelSize, maxSide: Int, option: RequestOption? = nil) -> GlsliceError {
        GlsliceError(.badInput, option: option, "output \(size) px is above WebP's limit of \(maxSide) px a side; write it as PNG")
    }
    /// A contact sheet over `--max-megapixels`.
    static func contactSheetOverLimit(width: Int, height: Int, megapixels: Int) -> GlsliceError {
        GlsliceError(.badInput, "a \(width)x\(height) px contact sheet is above the limit of \(megapixels) Mpx "
                     + "(--max-megapixels); preview fewer or smaller sources at a time")
    }
    /// An allocation the input asked for that failed (`bytes` nil: libpng's, of a size it keeps).
    static func notEnoughMemoryToDecodePNG() -> GlsliceError {
        GlsliceError(.badInput, "not enough memory for decoding the PNG")
    }
    static func notEnoughMemory(for what: String, bytes: Int?) -> GlsliceError {
        GlsliceError(.badInput, "not enough memory for \(what)\(bytes.map { " (\(max(1, $0 >> 20)) MiB)" } ?? "")")
    }
    static func sizesDiffer(_ first: String, _ a: String, _ second: String, _ b: String) -> GlsliceError {
        GlsliceError(.badInput, "\(first) is \(a) px but \(second) is \(b) px; compare needs equal sizes")
    }
    /// A WebP whose encoding would take more than all of `--answer-mb`.
    package static func webPOverAnswerBudget(_ size: String, bytes: Int, capacity: Int) -> GlsliceError {
        GlsliceError(.badInput, option: .format,
                     "webp: encoding a \(size) px WebP takes about \(bytes >> 20) MiB, more than --answer-mb \(capacity >> 20) allows; ask for format=png")
    }

    // MARK: Caps, insets and lattices that do not fit the source

    /// `points`: the insets as given, where they were points at a source scale other than 1.
    static func insetsExceedImage(_ insets: String, width: Int, height: Int, points: (insets: Insets, sourceScale: Double)? = nil) -> GlsliceError {
        guard let points else { return GlsliceError(.badInput, "insets \(insets) px exceed the \(width)x\(height) px image") }
        let scale = formatNumber(points.sourceScale)
        return GlsliceError(.badInput, "insets \(points.insets.formatted) pt at @\(scale)x are \(insets) px, past the \(width)x\(height) px image "
                            + "(insets are points: each is \(scale) px here)")
    }
    static func segmentsOutOfOrder(axis: String) -> GlsliceError {
        GlsliceError(.badInput, "lattice segments along \(axis) must cover the image in order")
    }
    static func segmentsShort(axis: String, covered: Int, of size: Int) -> GlsliceError {
        GlsliceError(.badInput, "lattice segments along \(axis) cover \(covered) of \(size) px")
    }
    /// Points times a scale that is no whole pixel count: an inset or a run
    /// at the source's scale (bad input), a size or an outset at the
    /// output's (`kind` `.usage`). `thing` names which, `points` the value.
    /// An inset (`side`: top, left, bottom or right) that is not on whole source pixels.
    static func insetOffPixelGrid(side: String, points: String, scale: Double) -> GlsliceError {
        offPixelGrid(side + " inset", points: points, scale: scale)
    }
    static func offPixelGrid(_ thing: String?, points: String, along axis: String? = nil, scale: Double,
                                     kind: GlsliceError.Kind = .badInput, option: RequestOption? = nil) -> GlsliceError {
        GlsliceError(kind, option: option,
                     "\(thing.map { "\($0) " } ?? "")\(points) pt\(axis.map { " along \($0)" } ?? "") at @\(formatNumber(scale))x is not on whole pixels")
    }
    static func runPastImage(_ run: String, axis: String, end: Int, size: Int) -> GlsliceError {
        GlsliceError(.badInput, option: .lattice, "run \(run) pt along \(axis) ends at \(end) px, past the \(size) px image")
    }
    /// More columns × rows than aapt2 lets a nine-patch have: the file's
    /// markers (`option` nil), or a request's `--lattice` (a usage error).
    static func tooManyRegions(columns: Int, rows: Int, maximum: Int, option: RequestOption? = nil) -> GlsliceError {
        GlsliceError(option == nil ? .badInput : .usage, option: option,
                     "\(option == nil ? "" : "makes ")too many regions in 9-patch: \(columns) columns x \(rows) rows = \(columns * rows) regions; aapt2 allows \(maximum)")
    }
    static func noResizableArea(axis: String, longer: Double) -> GlsliceError {
        GlsliceError(.badInput,
                     "no resizable area along \(axis): the caps fill the source but the output is \(formatNumber(longer)) px longer")
    }
    static func sourceOverTextureLimit(width: Int, height: Int, limit: Int) -> GlsliceError {
        GlsliceError(.badInput, "source is \(width)x\(height) px, above this GPU's texture limit of \(limit) (--backend cpu or hybrid draws it)")
    }

    // MARK: Nine-patch markers (in aapt2's words where aapt2 has them)

    static func ninePatchTooSmall(width: Int, height: Int) -> GlsliceError {
        GlsliceError(.badInput, "a .9.png must be at least 3x3 (artwork plus its 1-px border), this is \(width)x\(height)")
    }
    static func badCorner(_ colour: String) -> GlsliceError {
        GlsliceError(.badInput,
                     "nine-patch top-left corner pixel (0,0) is \(colour): it must be opaque white or transparent (it sets the neutral colour)")
    }
    static func invalidBorderColour(x: Int, y: Int, _ colour: String, neutral: String) -> GlsliceError {
        GlsliceError(.badInput, pixel: PixelPosition(x: x, y: y),
                     "nine-patch found an invalid color at (\(x),\(y)): \(colour); border pixels must be \(neutral), black #000000FF or red #FF0000FF")
    }
    static func opticalBoundsOnStretchEdge(_ edge: String, at axis: String) -> GlsliceError {
        GlsliceError(.badInput, "nine-patch found unexpected optical bounds (red pixel) on \(edge) border at \(axis)")
    }
    static func tooManyPaddingSections(_ edge: String, x: Int, y: Int) -> GlsliceError {
        GlsliceError(.badInput, "nine-patch has too many padding sections on \(edge) border (a second black run at (\(x),\(y)))")
    }
    static func tooManyLayoutBounds(_ edge: String, x: Int, y: Int) -> GlsliceError {
        GlsliceError(.badInput, "nine-patch has too many layout bounds sections on \(edge) border (a third red run at (\(x),\(y)))")
    }
    static func layoutBoundsOffEdge(_ edge: String, x: Int, y: Int) -> GlsliceError {
        GlsliceError(.badInput,
                     "nine-patch layout bounds on \(edge) border must start at edge (a red run at (\(x),\(y)) touches neither end)")
    }
    static func boundsDoNotFitSmaller(_ file: String) -> GlsliceError {
        GlsliceError(.badInput, file: file, "the padding or optical bounds do not fit the smaller nine-patch; nothing written")
    }

    // MARK: Compiled nine-patch chunks (npTc, npLb)

    static func npTcShorterThanHeader(_ bytes: Int) -> GlsliceError {
        GlsliceError(.badInput, "npTc chunk is \(bytes) bytes, shorter than its 32-byte header")
    }
    static func npTcShorterThanDivs(_ bytes: Int, x: Int, y: Int, colours: Int) -> GlsliceError {
        GlsliceError(.badInput,
                     "npTc chunk is \(bytes) bytes; \(x) x divs, \(y) y divs and \(colours) colours need \(32 + 4 * (x + y + colours))")
    }
    static func npTcOddDivs(_ count: Int, axis: String) -> GlsliceError {
        GlsliceError(.badInput, "npTc has \(count) \(axis) divs; they come in start/end pairs")
    }
    static func npTcDivOutside(axis: String, start: Int, end: Int, length: Int) -> GlsliceError {
        GlsliceError(.badInput, "npTc \(axis) div \(start)..\(end) is out of order or outside the \(length)-px image")
    }
    static func npLbSize(_ bytes: Int) -> GlsliceError {
        GlsliceError(.badInput, "npLb chunk is \(bytes) bytes; expected 16 (left, top, right, bottom)")
    }

    // MARK: Image sets (Contents.json as Xcode writes it)

    package static func notAnImageSet(_ contents: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "not an image set: expected {\"images\": [...]}")
    }
    static func contentsTooLarge(_ path: String, bytes: Int?, limit: Int) -> GlsliceError {
        GlsliceError(.badInput, file: path, (bytes.map { "is \($0) bytes, over" } ?? "grew past")
                     + " the \(limit >> 20) MiB an image set's Contents.json may have")
    }
    static func numericScale(_ contents: String, image: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "image \(image) has a numeric scale; Xcode writes it as a string such as \"2x\"")
    }
    static func badScale(_ contents: String, image: String, _ text: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "image \(image) has scale '\(text)'; expected 1x, 2x or 3x (1/64x to 64x)")
    }
    static func resizingNotAnObject(_ contents: String, image: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "image \(image): \"resizing\" must be an object with mode, center and cap-insets")
    }
    static func badResizingMode(_ contents: String, image: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "\(image): resizing mode must be 9-part, 3-part-horizontal or 3-part-vertical")
    }
    static func badCenterMode(_ contents: String, image: String, _ mode: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "\(image): center mode '\(mode)' must be tile or stretch")
    }
    static func notWholePixelCount(_ contents: String, image: String, _ name: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "\(image): \(name) must be a whole number of pixels from 0 to \(Int32.max)")
    }
    static func noImages(_ contents: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "the image set has no images")
    }
    static func fileNameIsAPath(_ contents: String, _ name: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "filename '\(name)' must be a file name inside the image set, not a path")
    }
    static func fileNameLinksOut(_ contents: String, _ name: String) -> GlsliceError {
        GlsliceError(.badInput, file: contents, "filename '\(name)' is a symbolic link out of the image set")
    }
    static func capInsetsExceedImage(_ file: String, width: Int, height: Int) -> GlsliceError {
        GlsliceError(.badInput, file: file, "cap-insets exceed the \(width)x\(height) px image")
    }
    static func centerSizeDoesNotFit(_ file: String, center: Int, available: Int) -> GlsliceError {
        GlsliceError(.badInput, file: file, "center size \(center) does not fit the \(available) px between the caps")
    }
    static func capsLeaveNoCentre(_ file: String, caps: String, scale: Double, size: String) -> GlsliceError {
        GlsliceError(.badInput, file: file,
                     "caps \(caps) pt at @\(formatNumber(scale))x leave no centre in the \(size) px image")
    }
}
