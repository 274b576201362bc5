import Foundation

/// `glslice optimize`: the smallest source that renders the same. Each
/// scalable band shrinks to what its analysis allows (1 px when solid or a
/// gradient; one period, with `keepPeriod`, when periodic), caps stay as they
/// are, and nothing is written until renders of the old and new source at
/// many sizes agree byte for byte in the modes that must agree.
public enum Optimizer {
    /// What an optimization did and proved.
    public struct Report: Sendable {
        public var input: String
        public var output: String
        package var kind: SourceKind
        public var before: PixelSize
        public var after: PixelSize
        /// The insets in points for a plain PNG (caps are never changed, so they are the same).
        package var insets: Insets?
        /// The modes in which old and new render byte-identically at every size checked.
        public var equalModes: [ResizeMode]
        /// Renders compared per mode in each source (sizes × 2 scales × 2 filters).
        var checksPerMode: Int
        public var bytesBefore: Int
        public var bytesAfter: Int
        /// The source's own default mode, when it is not among `equalModes`.
        var defaultModeLost: ResizeMode?
        /// A smaller image that was found but whose file came out no smaller
        /// than the input's, so the input was copied: its size and bytes.
        var notSmaller: (size: PixelSize, bytes: Int)? = nil

        public var text: String {
            var lines: [String] = []
            if let notSmaller {
                lines.append("\(input): already minimal: its \(notSmaller.size) px form would take \(notSmaller.bytes) bytes, "
                             + "not fewer than its \(bytesBefore); \(output) is an unchanged copy")
            } else if before == after {
                lines.append("\(input): nothing to lose; \(output) is an unchanged copy (\(before) px)")
            } else {
                lines.append("\(input): \(before) px -> \(after) px (\(bytesBefore) -> \(bytesAfter) bytes), wrote \(output)")
            }
            if let insets { lines.append("  insets: \(insets.formatted) pt (caps are never resized, so they stay)") }
            lines.append("  renders the same in: \(equalModes.map(\.rawValue).joined(separator: ", ")) "
                         + "(byte-identical in \(checksPerMode) renders per mode: sizes x 2 scales x 2 filters)")
            if let lost = defaultModeLost {
                lines.append("  note: its default mode, \(lost.rawValue), is not among them; render it with --mode tile")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// A source reduced along both axes: which source lines it keeps.
    struct Reduction {
        var columns: [Int]
        var rows: [Int]
        var lattice: Lattice
        /// Modes the reduction is expected to keep, from the analysis.
        var expectedModes: Set<ResizeMode>
    }

    static let stretchLike: Set<ResizeMode> = [.stretch, .tile, .auto, .repeat, .round]

    /// The smallest reduction the analysis allows. An axis with several
    /// scalable segments keeps their ratios, because layout shares the
    /// extra space in proportion to their lengths.
    static func reduce(_ image: PremultipliedImage, lattice: Lattice, keepPeriod: Bool) throws -> Reduction {
        var modes = Set(ResizeMode.allCases)
        let analyses = RegionAnalysis.analyze(image, lattice: lattice)
        func axis(_ segments: [Segment], _ which: Axis) -> (keep: [Int], segments: [Segment]) {
            let bands = analyses.filter { $0.axis == which }
            let lengths = bands.map(\.segment.length)
            let d = lengths.reduce(0, gcd)
            func allowed(_ band: BandAnalysis, _ m: Int) -> Bool {
                if m == band.segment.length { return true }
                switch band.content {
                case .solid, .gradient: return m >= 1
                case .periodic(let p): return keepPeriod && band.wholePeriods && m % p == 0
                case .none: return false
                }
            }
            var targets = lengths
            if d > 0 {
                for t in 1...d {
                    let candidate = lengths.map { $0 / d * t }
                    if zip(bands, candidate).allSatisfy({ allowed($0, $1) }) { targets = candidate; break }
                }
            }
            var keep: [Int] = [], out: [Segment] = []
            var band = 0
            for segment in segments {
                var length = segment.length
                if segment.scalable {
                    length = targets[band]
                    if length < segment.length {
                        switch bands[band].content {
                        case .periodic: modes.formIntersection([.tile, .auto])
                        default: modes.formIntersection(stretchLike)
                        }
                    }
                    band += 1
                }
                out.append(Segment(keep.count, keep.count + length, scalable: segment.scalable))
                keep += segment.start..<(segment.start + length)
            }
            return (keep, out)
        }
        let x = axis(lattice.x, .x), y = axis(lattice.y, .y)
        return Reduction(columns: x.keep, rows: y.keep,
                         lattice: try Lattice(width: x.keep.count, height: y.keep.count, x: x.segments, y: y.segments),
                         expectedModes: modes)
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// Output sizes that exercise every layout case: smaller than the caps,
    /// exactly the caps, natural, a pixel either way, wide, tall, large.
    static func checkSizes(for lattice: Lattice) -> [PixelSize] {
        let w = lattice.width, h = lattice.height
        let fx = lattice.x.filter { !$0.scalable }.map(\.length).reduce(0, +)
        let fy = lattice.y.filter { !$0.scalable }.map(\.length).reduce(0, +)
        let pairs = [(1, 1), (max(1, fx / 2), max(1, fy / 2)), (max(1, fx), max(1, fy)), (fx + 1, fy + 1), (fx + 2, fy + 3),
                     (w, h), (w + 1, h), (w, h + 1), (w + 1, h + 1), (w + 7, h + 3), (2 * w, h), (w, 2 * h),
                     (2 * w + 1, 2 * h + 1), (3 * w + 5, h + 11), (w + 13, 3 * h + 2), (37, 91), (91, 37), (64, 64),
                     (100, 40), (40, 100), (4 * w + 3, 4 * h + 1), (w + 50, h + 50), (160, 44), (23, 23)]
        var seen = Set<[Int]>(), sizes: [PixelSize] = []
        for (a, b) in pairs {
            let s = [max(1, min(a, 600)), max(1, min(b, 600))]
            if seen.insert(s).inserted { sizes.append(PixelSize(width: s[0], height: s[1])) }
        }
        return sizes
    }

    /// The modes in which `a` (on `la`) and `b` (on `lb`) render byte-identically
    /// at every size, at k = 1 and 2, with both filters; and the renders per mode.
    static func equalModes(_ a: PremultipliedImage, _ la: Lattice, _ b: PremultipliedImage, _ lb: Lattice,
                                  modes: [ResizeMode] = ResizeMode.allCases) throws -> (modes: [ResizeMode], checks: Int) {
        // The reference backend: what is proven equal is the bytes the CPU draws, which the GPU matches.
        let backend = Backend.cpu
        var equal: [ResizeMode] = []
        let sizes = checkSizes(for: la)
        for mode in modes {
            var same = true
            outer: for size in sizes {
                for k in [1.0, 2.0] {
                    for filter in [Filter.linear, .nearest] {
                        let pa = try PlanBuilder.plan(lattice: la, size: size, k: k, modes: PerAxis(both: mode), filter: filter, fillCenter: true)
                        let pb = try PlanBuilder.plan(lattice: lb, size: size, k: k, modes: PerAxis(both: mode), filter: filter, fillCenter: true)
                        if try backend.image(pa, source: a) != backend.image(pb, source: b) { same = false; break outer }
                    }
                }
            }
            if same { equal.append(mode) }
        }
        return (equal, sizes.count * 4)
    }

    /// Reduces `source` (its lattice `lattice`) and proves it: returns the
    /// smaller pixels and lattice, and the modes they are equal in.
    static func proven(_ image: PremultipliedImage, lattice: Lattice, keepPeriod: Bool, file: String) throws
        -> (image: PremultipliedImage, lattice: Lattice, modes: [ResizeMode], checks: Int) {
        let r = try reduce(image, lattice: lattice, keepPeriod: keepPeriod)
        let smaller = image.keeping(columns: r.columns, rows: r.rows)
        let (modes, checks) = try equalModes(image, lattice, smaller, r.lattice)
        let missing = r.expectedModes.subtracting(modes)
        guard missing.isEmpty else {
            throw InternalErrors.smallerRendersDifferently(file, modes: missing.map(\.rawValue).sorted())
        }
        return (smaller, r.lattice, modes, checks)
    }

    /// Optimizes `input` (a PNG with `insets`, a `.9.png`, or an image set) into `output`.
    /// `-` is standard input or output; `ninePatch` reads the input's border as
    /// markers whatever its name says (standard input).
    public static func optimize(input: String, output: String, insets: Insets = .zero, sourceScale: Double? = nil,
                                keepPeriod: Bool = false, limits: Limits = Limits(), ninePatch: Bool = false,
                                warn: (String) -> Void = { _ in }) throws -> Report {
        if ImageSet.isImageSet(path: input) {
            guard output != "-" else {
                throw UsageErrors.imageSetToStandardOutput(input)
            }
            return try ImageSetOptimizer.optimize(input: input, output: output, keepPeriod: keepPeriod, limits: limits)
        }
        // Settled before anything is read, as render settles it: `-o x.jpg` is refused, `-o x.webp` is WebP.
        let format = output == "-" ? .png : try StillImageWriter.format(for: output)
        let data = try PNGDecoder.readInput(input)
        let source = try SourceImage.decode(data: data, path: input, maxPixels: limits.maxSourcePixels, ninePatch: ninePatch)
        if source.hints.looksLikeNinePatch { warn(NinePatch.unnamedWarning) }
        // A compiled (npTc) source is written back as a raw .9.png, which aapt2 compiles again.
        let isNinePatch = source.hints.ninePatch != nil
        // Standard output has no name to check: it gets what the input is.
        guard output == "-" || isNinePatch == NinePatch.isNinePatch(path: output) else {
            throw UsageErrors.ninePatchOutputName(output, inputIsNinePatch: isNinePatch)
        }
        let lattice = try Inspection.slicing(source, insets: insets, sourceScale: sourceScale).lattice
        let result = try proven(source.image, lattice: lattice, keepPeriod: keepPeriod, file: input)
        let after = PixelSize(width: result.image.width, height: result.image.height)
        // The smaller image's file, in memory: a PNG is written only if it is fewer bytes than the input;
        // a WebP (the name says so) of the smaller image, or the input's own, whatever its bytes.
        var smaller: Data?
        if format == .webp, !isNinePatch {
            smaller = Data(try StillImageWriter.webp(after == source.size ? source.image : result.image, for: output))
        } else if after != source.size {
            if isNinePatch, let bounds = source.hints.ninePatch {
                let bordered = try NinePatchMarkers.bordered(result.image, lattice: result.lattice, bounds: bounds, file: output)
                smaller = try PNGEncoder.encode(bordered, compression: .small)
            } else {
                smaller = try PNGEncoder.encode(result.image, compression: .small)
            }
        }
        var notSmaller: (size: PixelSize, bytes: Int)?
        if format == .png, let candidate = smaller, candidate.count >= data.count {
            notSmaller = (after, candidate.count)
            smaller = nil
        }
        try writeCopy(smaller ?? data, to: output)
        let defaultMode = source.hints.defaultMode ?? .auto
        return Report(input: input, output: output, kind: isNinePatch ? .ninePatch : .png, before: source.size,
                      after: smaller == nil ? source.size : after,
                      // A copy renders the same as its input in every mode.
                      insets: isNinePatch ? nil : insets, equalModes: smaller == nil ? ResizeMode.allCases : result.modes,
                      checksPerMode: result.checks,
                      bytesBefore: data.count, bytesAfter: (smaller ?? data).count,
                      defaultModeLost: smaller == nil || result.modes.contains(defaultMode) ? nil : defaultMode, notSmaller: notSmaller)
    }

    /// Writes a file's bytes (the input's own, or the smaller one's), through `OutputFile` like every output.
    static func writeCopy(_ data: Data, to output: String) throws {
        guard output != "-" else { return try writeAll(data, to: STDOUT_FILENO, name: "<stdout>") }
        try OutputFile.write(data, to: output)
    }
}
