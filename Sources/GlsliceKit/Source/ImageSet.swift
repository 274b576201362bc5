import Foundation

/// An Xcode asset catalog image set (`NAME.imageset/Contents.json`, docs/RENDERING.md §7):
/// one image per scale, each with its own `resizing` in its own pixels.
package struct ImageSet: Sendable {
    package struct Variant: Sendable {
        package var file: String
        package var scale: Double
        var resizing: Resizing?
    }

    /// Xcode's slicing: which caps exist, the centre's mode and size.
    package struct Resizing: Sendable, Hashable, Codable {
        package enum Slicing: String, Sendable, Codable { case ninePart = "9-part", horizontal = "3-part-horizontal", vertical = "3-part-vertical" }
        package var slicing: Slicing
        package var centerMode: ResizeMode
        /// Centre width/height in pixels; source pixels past it, up to the far cap, are not drawn.
        var centerWidth: Int?
        var centerHeight: Int?
        var capInsets: PixelInsets
    }

    package var folder: String
    var variants: [Variant]

    /// True for a folder ending in `.imageset` or its `Contents.json`.
    package static func isImageSet(path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.hasSuffix(".imageset") || (trimmed.hasSuffix("/Contents.json") && trimmed.contains(".imageset/"))
    }

    package init(path: String) throws {
        try self.init(path: path, in: .anywhere)
    }

    /// The set at `path` read through `scope` (a server's root).
    package static func read(path: String, in scope: FileScope) throws -> ImageSet {
        try ImageSet(path: path, in: scope)
    }

    /// The set at `path` read through `scope`: beneath a server's root, its
    /// `Contents.json` and images are opened there too, so none of them can be
    /// a link out of the root.
    init(path: String, in scope: FileScope) throws {
        var folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        if folder.hasSuffix("/Contents.json") { folder = String(folder.dropLast("/Contents.json".count)) }
        try self.init(folder: folder, contents: Self.readContents(folder + "/Contents.json", in: scope),
                      linksChecked: scope.folder == nil)
    }

    /// The most bytes of `Contents.json` read: Xcode writes a few hundred, and
    /// a set with every idiom, scale and appearance stays far under this.
    static let maxContentsBytes = 1 << 20

    /// `Contents.json`'s bytes: a regular file of at most `maxContentsBytes`,
    /// never opened blocking (a FIFO is refused, not waited on).
    static func readContents(_ path: String, in scope: FileScope = .anywhere) throws -> Data {
        let fd = scope.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw FileErrors.cannotOpen(path, errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw FileErrors.notARegularFile(path, kind: .badInput)
        }
        guard status.st_size <= maxContentsBytes else {
            throw InputErrors.contentsTooLarge(path, bytes: Int(status.st_size), limit: maxContentsBytes)
        }
        var bytes: [UInt8] = []
        while bytes.count <= maxContentsBytes, readAppending(fd, into: &bytes, count: 64 << 10) > 0 {}
        guard bytes.count <= maxContentsBytes else {
            throw InputErrors.contentsTooLarge(path, bytes: nil, limit: maxContentsBytes)
        }
        return Data(bytes)
    }

    /// Parses `Contents.json`'s bytes for the set in `folder` (the fuzz target's entry).
    package init(folder: String, contents data: Data) throws {
        try self.init(folder: folder, contents: data, linksChecked: true)
    }

    /// `linksChecked`: refuse an image that is a symbolic link out of the set's
    /// folder (by its path; a scoped read has the kernel keep it beneath the root instead).
    init(folder: String, contents data: Data, linksChecked: Bool) throws {
        self.folder = folder
        let contents = folder + "/Contents.json"
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let images = root["images"] as? [[String: Any]] else {
            throw InputErrors.notAnImageSet(contents)
        }
        variants = try images.compactMap { entry in
            guard let file = entry["filename"] as? String else { return nil } // an empty slot in Xcode
            try Self.checkInside(folder: folder, file: file, contents: contents, links: linksChecked)
            guard entry["scale"] == nil || entry["scale"] is String else {
                throw InputErrors.numericScale(contents, image: file)
            }
            let scaleText = (entry["scale"] as? String) ?? "1x"
            // Within the scale ratios a render allows (1/64…64): past them the set is malformed, not the request.
            guard scaleText.hasSuffix("x"), let scale = Double(scaleText.dropLast()), scale.isFinite,
                  scale >= 1.0 / 64, scale <= 64 else {
                throw InputErrors.badScale(contents, image: file, scaleText)
            }
            guard entry["resizing"] == nil || entry["resizing"] is [String: Any] else {
                throw InputErrors.resizingNotAnObject(contents, image: file)
            }
            let resizing = try (entry["resizing"] as? [String: Any]).map { try Self.resizing($0, file: file, contents: contents) }
            return Variant(file: folder + "/" + file, scale: scale, resizing: resizing)
        }
        guard !variants.isEmpty else { throw InputErrors.noImages(contents) }
    }

    /// Xcode names images inside their set; a name that leads elsewhere (a
    /// path, `..`, or a symlink out of the folder) would read files the set does not own.
    private static func checkInside(folder: String, file: String, contents: String, links: Bool) throws {
        guard !file.isEmpty, !file.contains("/"), !file.contains("\0"), file != ".", file != ".." else {
            throw InputErrors.fileNameIsAPath(contents, file)
        }
        guard links else { return }
        let path = folder + "/" + file
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return }
        let resolved = URL(fileURLWithPath: target.hasPrefix("/") ? target : folder + "/" + target)
            .resolvingSymlinksInPath().standardizedFileURL.path
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
        guard resolved.hasPrefix(root + "/") else {
            throw InputErrors.fileNameLinksOut(contents, file)
        }
    }

    private static func resizing(_ json: [String: Any], file: String, contents: String) throws -> Resizing {
        guard let modeText = json["mode"] as? String, let slicing = Resizing.Slicing(rawValue: modeText) else {
            throw InputErrors.badResizingMode(contents, image: file)
        }
        let center = json["center"] as? [String: Any] ?? [:]
        let centerMode: ResizeMode
        switch center["mode"] as? String ?? "stretch" {
        case "tile": centerMode = .tile
        case "stretch": centerMode = .stretch
        case let other: throw InputErrors.badCenterMode(contents, image: file, other)
        }
        // Bounded so that sums of caps and centres can never overflow.
        func int(_ value: Any?, _ name: String) throws -> Int? {
            guard let value else { return nil }
            guard let n = value as? NSNumber, let whole = Int32(exactly: n.doubleValue), whole >= 0 else {
                throw InputErrors.notWholePixelCount(contents, image: file, name)
            }
            return Int(whole)
        }
        let caps = json["cap-insets"] as? [String: Any] ?? [:]
        var insets = PixelInsets(top: try int(caps["top"], "cap-insets.top") ?? 0, left: try int(caps["left"], "cap-insets.left") ?? 0,
                                 bottom: try int(caps["bottom"], "cap-insets.bottom") ?? 0,
                                 right: try int(caps["right"], "cap-insets.right") ?? 0)
        // 3-part slicing resizes one axis; the other stretches whole, as Xcode draws it.
        if slicing == .horizontal { insets.top = 0; insets.bottom = 0 }
        if slicing == .vertical { insets.left = 0; insets.right = 0 }
        return Resizing(slicing: slicing, centerMode: centerMode,
                        centerWidth: slicing == .vertical ? nil : try int(center["width"], "center.width"),
                        centerHeight: slicing == .horizontal ? nil : try int(center["height"], "center.height"),
                        capInsets: insets)
    }

    /// The variant for `outputScale`: the same scale, else the next larger one
    /// (scaled down), else the largest there is (scaled up).
    package func variant(for outputScale: Double) -> Variant {
        let sorted = variants.sorted { $0.scale < $1.scale }
        return sorted.first { abs($0.scale - outputScale) < 1e-9 }
            ?? sorted.first { $0.scale > outputScale }
            ?? sorted[sorted.count - 1]
    }

    /// The variant's pixels as a source with its own lattice. Pixels between the
    /// centre's end and the far cap are dropped, so they are never drawn.
    static func apply(_ resizing: Resizing, to loaded: SourceImage, file: String) throws -> SourceImage {
        let image = loaded.image
        let caps = resizing.capInsets
        guard caps.left + caps.right <= image.width, caps.top + caps.bottom <= image.height else {
            throw InputErrors.capInsetsExceedImage(file, width: image.width, height: image.height)
        }
        func kept(_ length: Int, _ low: Int, _ high: Int, _ center: Int?) throws -> [Int] {
            let available = length - low - high
            guard let center else { return Array(0..<length) }
            guard center >= 1, center <= available else {
                throw InputErrors.centerSizeDoesNotFit(file, center: center, available: available)
            }
            return Array(0..<(low + center)) + Array((length - high)..<length)
        }
        let columns = try kept(image.width, caps.left, caps.right, resizing.centerWidth)
        let rows = try kept(image.height, caps.top, caps.bottom, resizing.centerHeight)
        let cropped = image.keeping(columns: columns, rows: rows)
        let lattice = try Lattice(width: cropped.width, height: cropped.height, insets: caps)
        var hints = loaded.hints
        hints.lattice = lattice
        hints.latticeOwner = .capInsets
        return SourceImage(image: cropped, file: file, hints: hints)
    }
}
