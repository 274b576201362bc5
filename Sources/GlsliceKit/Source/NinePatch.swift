import Foundation

/// Android's raw nine-patch (`NAME.9.png`, docs/RENDERING.md §7): a 1-pixel border of
/// markers around the artwork. Black runs on the top and left edges are the
/// scalable segments (any number); black runs on the bottom and right edges
/// are the padding (content) box, one per edge at most; red on the bottom and
/// right edges marks optical bounds. Every other border pixel is neutral: the
/// colour of pixel (0, 0), fully transparent or opaque white.
public struct NinePatch: Sendable, Equatable {
    /// The artwork inside the border.
    public var artwork: StraightImage
    /// Segments from the top and left markers, in artwork pixels.
    public var lattice: Lattice
    /// The content box as insets of the artwork, from the bottom and right
    /// markers, or the first and last stretch runs where they are absent.
    public var padding: PixelInsets

    /// True for names ending in `.9.png` (any case).
    public static func isNinePatch(path: String) -> Bool {
        path.lowercased().hasSuffix(".9.png")
    }

    public init(parsing image: StraightImage) throws {
        let border = try Border(image)
        let stretchX = try border.blackRuns(along: .top), stretchY = try border.blackRuns(along: .left)
        let padX = try border.paddingRun(along: .bottom), padY = try border.paddingRun(along: .right)
        let w = image.width - 2, h = image.height - 2
        lattice = try Lattice(width: w, height: h, x: NinePatch.segments(stretchX, w), y: NinePatch.segments(stretchY, h))
        let contentX = padX ?? ((stretchX.first?.lowerBound ?? 0)..<(stretchX.last?.upperBound ?? w))
        let contentY = padY ?? ((stretchY.first?.lowerBound ?? 0)..<(stretchY.last?.upperBound ?? h))
        padding = PixelInsets(top: contentY.lowerBound, left: contentX.lowerBound,
                              bottom: h - contentY.upperBound, right: w - contentX.upperBound)
        artwork = border.artwork()
    }

    /// The 1-pixel border of a raw nine-patch and the rules for reading it.
    struct Border {
        enum Edge: String { case top, left, bottom, right }
        enum Mark { case neutral, black, red }

        let image: StraightImage
        /// The neutral colour is pixel (0, 0): fully transparent, or opaque white.
        let transparentNeutral: Bool

        init(_ image: StraightImage) throws {
            let width = image.width, height = image.height
            guard width >= 3, height >= 3 else {
                throw GlsliceError(.badInput, "a .9.png must be at least 3x3 (artwork plus its 1-px border), this is \(width)x\(height)")
            }
            let corner = image.rgba[0, 0]
            guard corner[3] == 0 || corner == [255, 255, 255, 255] else {
                throw GlsliceError(.badInput,
                    "nine-patch pixel (0,0) is \(NinePatch.hex(corner)): the neutral colour must be fully transparent or opaque white")
            }
            self.image = image
            transparentNeutral = corner[3] == 0
            for (x, y) in [(width - 1, 0), (0, height - 1), (width - 1, height - 1)]
                where try mark(x, y, redAllowed: false) != .neutral {
                throw GlsliceError(.badInput, "nine-patch corner pixel (\(x),\(y)) must be neutral")
            }
        }

        func mark(_ x: Int, _ y: Int, redAllowed: Bool) throws -> Mark {
            let p = image.rgba[x, y]
            if transparentNeutral ? p[3] == 0 : p == [255, 255, 255, 255] { return .neutral }
            if p == [0, 0, 0, 255] { return .black }
            if redAllowed && p == [255, 0, 0, 255] { return .red }
            let expected = redAllowed ? "neutral, black #000000FF or red #FF0000FF" : "neutral or black #000000FF"
            throw GlsliceError(.badInput, "nine-patch border pixel (\(x),\(y)) is \(NinePatch.hex(p)); expected \(expected)")
        }

        /// Black runs along `edge`, as artwork ranges (red allowed on bottom and right only).
        func blackRuns(along edge: Edge) throws -> [Range<Int>] {
            let horizontal = edge == .top || edge == .bottom
            let count = (horizontal ? image.width : image.height) - 1
            let redAllowed = edge == .bottom || edge == .right
            func at(_ i: Int) -> (Int, Int) {
                switch edge {
                case .top: (i, 0)
                case .left: (0, i)
                case .bottom: (i, image.height - 1)
                case .right: (image.width - 1, i)
                }
            }
            var runs: [Range<Int>] = []
            var start: Int?
            for i in 1...count {
                let black = i <= count - 1 ? try mark(at(i).0, at(i).1, redAllowed: redAllowed) == .black : false
                if black, start == nil { start = i - 1 }
                if !black, let s = start {
                    runs.append(s..<(i - 1))
                    start = nil
                }
            }
            return runs
        }

        /// The padding run on the bottom or right edge: at most one.
        func paddingRun(along edge: Edge) throws -> Range<Int>? {
            let runs = try blackRuns(along: edge)
            guard runs.count <= 1 else {
                throw GlsliceError(.badInput, "nine-patch \(edge.rawValue) edge has \(runs.count) padding runs; at most one is allowed")
            }
            return runs.first
        }

        /// The pixels inside the border.
        func artwork() -> StraightImage {
            let width = image.width, w = image.width - 2, h = image.height - 2
            var pixels: [UInt8] = []
            pixels.reserveCapacity(w * h * 4)
            for y in 1...h {
                let start = (y * width + 1) * 4
                pixels += image.rgba.pixels[start..<(start + w * 4)]
            }
            return StraightImage(RGBAImage(width: w, height: h, pixels: pixels))
        }
    }

    /// A compiled nine-patch (an `npTc` chunk, as Android's resource compiler
    /// writes it, border already removed) over a `width × height` image.
    /// Layout, big-endian: bytes 0–3 wasDeserialized, numXDivs, numYDivs,
    /// numColors; 4–11 unused; 12–27 padding left, right, top, bottom (int32);
    /// 28–31 unused; then xDivs, yDivs (int32 start/end pairs of the scalable
    /// runs) and colors (uint32).
    public static func compiled(chunk: Data, width: Int, height: Int) throws -> (lattice: Lattice, padding: PixelInsets) {
        let bytes = [UInt8](chunk)
        guard bytes.count >= 32 else {
            throw GlsliceError(.badInput, "npTc chunk is \(bytes.count) bytes, shorter than its 32-byte header")
        }
        let xCount = Int(bytes[1]), yCount = Int(bytes[2]), colours = Int(bytes[3])
        guard bytes.count >= 32 + 4 * (xCount + yCount + colours) else {
            throw GlsliceError(.badInput, "npTc chunk is \(bytes.count) bytes; \(xCount) x divs, \(yCount) y divs and \(colours) colours need \(32 + 4 * (xCount + yCount + colours))")
        }
        func int32(_ offset: Int) -> Int {
            Int(Int32(bitPattern: UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
                      | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])))
        }
        func runs(_ count: Int, at offset: Int, length: Int, axis: String) throws -> [Range<Int>] {
            guard count % 2 == 0 else { throw GlsliceError(.badInput, "npTc has \(count) \(axis) divs; they come in start/end pairs") }
            var runs: [Range<Int>] = []
            var previous = 0
            for pair in 0..<(count / 2) {
                let start = int32(offset + 8 * pair), end = int32(offset + 8 * pair + 4)
                guard start >= previous, end >= start, end <= length else {
                    throw GlsliceError(.badInput, "npTc \(axis) div \(start)..\(end) is out of order or outside the \(length)-px image")
                }
                if end > start { runs.append(start..<end) }
                previous = end
            }
            return runs
        }
        let xRuns = try runs(xCount, at: 32, length: width, axis: "x")
        let yRuns = try runs(yCount, at: 32 + 4 * xCount, length: height, axis: "y")
        let lattice = try Lattice(width: width, height: height,
                                  x: segments(xRuns, width), y: segments(yRuns, height))
        let padding = PixelInsets(top: int32(20), left: int32(12), bottom: int32(24), right: int32(16))
        return (lattice, padding)
    }

    /// Alternating fixed and scalable segments covering `[0, length)` from the scalable runs.
    static func segments(_ stretch: [Range<Int>], _ length: Int) -> [Segment] {
        var segments: [Segment] = []
        var position = 0
        for run in stretch {
            if run.lowerBound > position { segments.append(Segment(position, run.lowerBound, scalable: false)) }
            segments.append(Segment(run.lowerBound, run.upperBound, scalable: true))
            position = run.upperBound
        }
        if position < length { segments.append(Segment(position, length, scalable: false)) }
        return segments
    }

    static func hex(_ p: [UInt8]) -> String {
        "#" + p.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }
}
