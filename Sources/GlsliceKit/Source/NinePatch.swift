import Foundation

/// Where a nine-patch says its content goes, in artwork pixels: what an app
/// build needs to lay text out inside it.
package struct NinePatchBounds: Sendable, Equatable, Codable {
    /// The content (padding) box as insets of the artwork.
    package var padding: PixelInsets
    /// Optical (layout) bounds as insets of the artwork; zero where none are marked.
    package var optical: PixelInsets

    package init(padding: PixelInsets, optical: PixelInsets = .zero) {
        self.padding = padding
        self.optical = optical
    }
}

/// Android's raw nine-patch (`NAME.9.png`, docs/RENDERING.md §7), read as
/// Android's resource compiler (aapt2) reads it, because that is what Android
/// users check against: a 1-pixel border of markers around the artwork. Black
/// runs on the top and left edges are the scalable segments (any number; an
/// edge with none scales whole); black runs on the bottom and right edges are
/// the padding box, red runs there the optical bounds. Pixel (0, 0) sets the
/// neutral colour (fully transparent or opaque white); the four corner pixels
/// are never read as markers.
package struct NinePatch: Sendable, Equatable {
    /// The artwork inside the border.
    var artwork: StraightImage
    /// Segments from the top and left markers, in artwork pixels.
    package var lattice: Lattice
    package var bounds: NinePatchBounds


    /// The content box as insets of the artwork.
    package var padding: PixelInsets { bounds.padding }

    /// A plain image whose 1-px border reads as nine-patch markers, with at
    /// least one black marker on the top and the left edge: a `.9.png` that
    /// lost its name (piped through standard input).
    static func looksLikeNinePatch(_ image: StraightImage) -> Bool {
        guard image.width >= 3, image.height >= 3 else { return false }
        func isBlack(_ x: Int, _ y: Int) -> Bool {
            let i = (y * image.width + x) * 4, p = image.rgba.pixels
            return p[i] == 0 && p[i + 1] == 0 && p[i + 2] == 0 && p[i + 3] == 255
        }
        guard (1..<image.width - 1).contains(where: { isBlack($0, 0) }),
              (1..<image.height - 1).contains(where: { isBlack(0, $0) }) else { return false }
        return (try? NinePatch(parsing: image)) != nil
    }

    /// What is said when `looksLikeNinePatch` holds for a source read as a plain PNG.
    static let unnamedWarning = "<stdin> looks like a nine-patch (black markers in a 1-px border) "
        + "but was read as a plain PNG, markers and all; give --nine-patch to read its markers"

    /// True for names ending in `.9.png` (any case).
    static func isNinePatch(path: String) -> Bool {
        path.lowercased().hasSuffix(".9.png")
    }

    /// - Parameters:
    ///   - image: the whole file, border included, decoded for rendering.
    ///   - markers: the same file decoded keeping the high byte of 16-bit
    ///     samples, as aapt2 reads markers; nil when the file is 8-bit or less.
    package init(parsing image: StraightImage, markers: StraightImage? = nil) throws {
        let border = try Border(markers ?? image)
        let top = try border.runs(along: .top), left = try border.runs(along: .left)
        let bottom = try border.runs(along: .bottom), right = try border.runs(along: .right)
        let w = image.width - 2, h = image.height - 2
        let columns = NinePatch.regionCount(top.black, w), rows = NinePatch.regionCount(left.black, h)
        guard columns * rows <= Lattice.maxRegions else {
            throw InputErrors.tooManyRegions(columns: columns, rows: rows, maximum: Lattice.maxRegions)
        }
        lattice = try Lattice(width: w, height: h, stretchX: top.black, stretchY: left.black)
        let padX = try border.padding(bottom.black, stretch: top.black, length: w, edge: .bottom)
        let padY = try border.padding(right.black, stretch: left.black, length: h, edge: .right)
        let opticalX = try border.optical(bottom.red, length: w, edge: .bottom)
        let opticalY = try border.optical(right.red, length: h, edge: .right)
        bounds = NinePatchBounds(
            padding: PixelInsets(top: padY.start, left: padX.start, bottom: padY.end, right: padX.end),
            optical: PixelInsets(top: opticalY.start, left: opticalX.start, bottom: opticalY.end, right: opticalX.end))
        artwork = NinePatch.artwork(of: image)
    }

    /// The 1-pixel border of a raw nine-patch and aapt2's rules for reading it.
    struct Border {
        enum Edge: String { case top, left, bottom, right }

        let image: StraightImage
        /// Pixel (0, 0) sets the neutral colour: any fully transparent pixel, or opaque white.
        let transparentNeutral: Bool

        init(_ image: StraightImage) throws {
            let width = image.width, height = image.height
            guard width >= 3, height >= 3 else {
                throw InputErrors.ninePatchTooSmall(width: width, height: height)
            }
            let corner = image.rgba[0, 0]
            guard corner[3] == 0 || corner == [255, 255, 255, 255] else {
                throw InputErrors.badCorner(NinePatch.hex(corner))
            }
            self.image = image
            transparentNeutral = corner[3] == 0
        }

        /// The image position of index `i` along `edge` (0 is the corner).
        func position(_ i: Int, _ edge: Edge) -> (x: Int, y: Int) {
            switch edge {
            case .top: (i, 0)
            case .left: (0, i)
            case .bottom: (i, image.height - 1)
            case .right: (image.width - 1, i)
            }
        }

        /// Black and red runs along `edge` in artwork coordinates, reading
        /// indices 1 … length − 2 as aapt2 does: the corners are never read.
        func runs(along edge: Edge) throws -> (black: [Range<Int>], red: [Range<Int>]) {
            let horizontal = edge == .top || edge == .bottom
            let length = horizontal ? image.width : image.height
            var black: [Range<Int>] = [], red: [Range<Int>] = []
            var current: (red: Bool, start: Int)?
            func close(at end: Int) {
                guard let run = current else { return }
                if run.red { red.append(run.start..<end) } else { black.append(run.start..<end) }
                current = nil
            }
            for i in 1..<(length - 1) {
                let (x, y) = position(i, edge)
                let p = image.rgba[x, y]
                let isBlack = p == [0, 0, 0, 255], isRed = p == [255, 0, 0, 255]
                if !isBlack, !isRed {
                    guard transparentNeutral ? p[3] == 0 : p == [255, 255, 255, 255] else {
                        let neutral = transparentNeutral ? "transparent" : "opaque white"
                        throw InputErrors.invalidBorderColour(x: x, y: y, NinePatch.hex(p), neutral: neutral)
                    }
                }
                if isRed, edge == .top || edge == .left {
                    let axis = horizontal ? "x=\(x)" : "y=\(y)"
                    throw InputErrors.opticalBoundsOnStretchEdge(edge.rawValue, at: axis)
                }
                if let run = current, run.red == isRed, isBlack || isRed { continue }
                close(at: i - 1)
                if isBlack || isRed { current = (isRed, i - 1) }
            }
            close(at: length - 2)
            return (black, red)
        }

        /// Padding from the bottom or right edge: one black run at most; with
        /// none, the first and last stretch runs; with neither, no padding.
        func padding(_ runs: [Range<Int>], stretch: [Range<Int>], length: Int, edge: Edge) throws -> (start: Int, end: Int) {
            guard runs.count <= 1 else {
                let at = position(runs[1].lowerBound + 1, edge)
                throw InputErrors.tooManyPaddingSections(edge.rawValue, x: at.x, y: at.y)
            }
            if let run = runs.first { return (run.lowerBound, length - run.upperBound) }
            if let first = stretch.first, let last = stretch.last { return (first.lowerBound, length - last.upperBound) }
            return (0, 0)
        }

        /// Optical bounds from the red runs of the bottom or right edge: each run
        /// must touch an end of the edge, so at most two.
        func optical(_ runs: [Range<Int>], length: Int, edge: Edge) throws -> (start: Int, end: Int) {
            guard runs.count <= 2 else {
                let at = position(runs[2].lowerBound + 1, edge)
                throw InputErrors.tooManyLayoutBounds(edge.rawValue, x: at.x, y: at.y)
            }
            var start = 0, end = 0
            for run in runs {
                if run.lowerBound == 0 { start = run.upperBound } else if run.upperBound == length { end = length - run.lowerBound } else {
                    let at = position(run.lowerBound + 1, edge)
                    throw InputErrors.layoutBoundsOffEdge(edge.rawValue, x: at.x, y: at.y)
                }
            }
            return (start, end)
        }
    }

    /// The pixels inside the border.
    static func artwork(of image: StraightImage) -> StraightImage {
        let width = image.width, w = image.width - 2, h = image.height - 2
        var pixels: [UInt8] = []
        pixels.reserveCapacity(w * h * 4)
        for y in 1...h {
            let start = (y * width + 1) * 4
            pixels += image.rgba.pixels[start..<(start + w * 4)]
        }
        return StraightImage(RGBAImage(width: w, height: h, pixels: pixels))
    }

    /// A compiled nine-patch (an `npTc` chunk, as Android's resource compiler
    /// writes it, border already removed) over a `width × height` image, with
    /// its optical bounds from an `npLb` chunk if there is one.
    /// `npTc`, big-endian: bytes 0–3 wasDeserialized, numXDivs, numYDivs,
    /// numColors; 4–11 unused; 12–27 padding left, right, top, bottom (int32);
    /// 28–31 unused; then xDivs, yDivs (int32 start/end pairs of the scalable
    /// runs) and colors (uint32). `npLb`: left, top, right, bottom as int32 in
    /// the device's byte order, which is little-endian on every Android ABI.
    /// Padding and optical bounds are passed on as written, unchecked, as Android does.
    package static func compiled(chunk: Data, layoutBounds: Data? = nil, width: Int, height: Int) throws -> (lattice: Lattice, bounds: NinePatchBounds) {
        let bytes = [UInt8](chunk)
        guard bytes.count >= 32 else {
            throw InputErrors.npTcShorterThanHeader(bytes.count)
        }
        let xCount = Int(bytes[1]), yCount = Int(bytes[2]), colours = Int(bytes[3])
        guard bytes.count >= 32 + 4 * (xCount + yCount + colours) else {
            throw InputErrors.npTcShorterThanDivs(bytes.count, x: xCount, y: yCount, colours: colours)
        }
        func int32(_ offset: Int) -> Int {
            Int(Int32(bitPattern: UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
                      | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])))
        }
        func runs(_ count: Int, at offset: Int, length: Int, axis: String) throws -> [Range<Int>] {
            guard count % 2 == 0 else { throw InputErrors.npTcOddDivs(count, axis: axis) }
            var runs: [Range<Int>] = []
            var previous = 0
            for pair in 0..<(count / 2) {
                let start = int32(offset + 8 * pair), end = int32(offset + 8 * pair + 4)
                guard start >= previous, end >= start, end <= length else {
                    throw InputErrors.npTcDivOutside(axis: axis, start: start, end: end, length: length)
                }
                if end > start { runs.append(start..<end) }
                previous = end
            }
            return runs
        }
        let xRuns = try runs(xCount, at: 32, length: width, axis: "x")
        let yRuns = try runs(yCount, at: 32 + 4 * xCount, length: height, axis: "y")
        let lattice = try Lattice(width: width, height: height, stretchX: xRuns, stretchY: yRuns)
        let padding = PixelInsets(top: int32(20), left: int32(12), bottom: int32(24), right: int32(16))
        var optical = PixelInsets.zero
        if let layoutBounds {
            let b = [UInt8](layoutBounds)
            guard b.count == 16 else { throw InputErrors.npLbSize(b.count) }
            func le32(_ o: Int) -> Int {
                Int(Int32(bitPattern: UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24))
            }
            optical = PixelInsets(top: le32(4), left: le32(0), bottom: le32(12), right: le32(8))
        }
        return (lattice, NinePatchBounds(padding: padding, optical: optical))
    }

    /// aapt2's count of regions along an axis: 0 with no stretch runs, else
    /// the runs and the fixed pieces between and around them.
    static func regionCount(_ stretch: [Range<Int>], _ length: Int) -> Int {
        guard let first = stretch.first, let last = stretch.last else { return 0 }
        let fixedStart = first.lowerBound != 0, fixedEnd = last.upperBound != length
        return stretch.count * 2 + (fixedStart && fixedEnd ? 1 : (!fixedStart && !fixedEnd ? -1 : 0))
    }

    static func hex(_ p: [UInt8]) -> String {
        "#" + p.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }
}
