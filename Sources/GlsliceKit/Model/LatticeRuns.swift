/// The stretchable runs of a plain PNG, per axis, in points: `--lattice
/// x=10-12,30-32;y=8-9`. They say what a `.9.png`'s top and left markers say
/// (docs/RENDERING.md §1): each run `a-b` is the half-open interval `[a, b)`,
/// everything between runs is an end cap, and an axis with no runs scales
/// whole, as Android draws a nine-patch edge without a black run.
public struct LatticeRuns: Sendable, Equatable {
    /// One stretchable run, `[start, end)` in points.
    package struct Run: Sendable, Equatable {
        package var start: Double
        package var end: Double

        package init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }
    }

    /// A lattice is held to a `.9.png`'s limit, aapt2's 127 regions (columns ×
    /// rows, `Lattice.maxRegions`): a URL's cost then stays that of a nine-patch.
    /// 64 runs along one axis make at least 127 columns, so no more are read.
    package static let maxRunsPerAxis = 64

    package var x: [Run]
    package var y: [Run]

    package init(x: [Run], y: [Run]) {
        self.x = x
        self.y = y
    }

    /// Parses `x=A-B,C-D;y=E-F` (either axis may be left out, in either order).
    public init(parsing text: String) throws {
        func refuse(_ fault: UsageErrors.LatticeFault) -> GlsliceError { UsageErrors.notALattice(fault, got: text) }
        var axes: [String: [Run]] = [:]
        for part in text.split(separator: ";", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard pair.count == 2, name == "x" || name == "y" else { throw refuse(.noAxis) }
            guard axes[name] == nil else { throw refuse(.axisTwice(name)) }
            let runs = pair[1].split(separator: ",", omittingEmptySubsequences: false)
            guard runs.count <= Self.maxRunsPerAxis else { throw refuse(.tooManyRuns(name, Self.maxRunsPerAxis)) }
            var parsed: [Run] = []
            for run in runs {
                // A leading '-' would be a negative number: split on the last '-' after the first character.
                let body = run.trimmingCharacters(in: .whitespaces)
                guard let dash = body.dropFirst().lastIndex(of: "-"),
                      let start = Double(body[..<dash].trimmingCharacters(in: .whitespaces)),
                      let end = Double(body[body.index(after: dash)...].trimmingCharacters(in: .whitespaces)),
                      start.isFinite, end.isFinite else {
                    throw refuse(.notARun)
                }
                guard start >= 0 else { throw refuse(.negative) }
                guard end > start else { throw refuse(.empty) }
                if let last = parsed.last, start <= last.end {
                    throw refuse(.outOfOrder(name))
                }
                parsed.append(Run(start: start, end: end))
            }
            axes[name] = parsed
        }
        self.init(x: axes["x"] ?? [], y: axes["y"] ?? [])
    }

    /// `x=10-12,30-32;y=8-9`, the form `init(parsing:)` reads; an axis without runs is left out.
    public var formatted: String {
        func axis(_ name: String, _ runs: [Run]) -> String? {
            runs.isEmpty ? nil : name + "=" + runs.map { formatNumber($0.start) + "-" + formatNumber($0.end) }.joined(separator: ",")
        }
        return [axis("x", x), axis("y", y)].compactMap { $0 }.joined(separator: ";")
    }

    /// The runs in whole source pixels at `sourceScale`, checked against the image.
    package func lattice(width: Int, height: Int, sourceScale: Double) throws -> Lattice {
        func pixels(_ runs: [Run], _ size: Int, _ axis: String) throws -> [Range<Int>] {
            try runs.map { run in
                guard let start = wholePixels(run.start * sourceScale), let end = wholePixels(run.end * sourceScale) else {
                    throw InputErrors.offPixelGrid("run", points: "\(formatNumber(run.start))-\(formatNumber(run.end))", along: axis,
                                                   scale: sourceScale, option: .lattice)
                }
                guard end <= size else {
                    throw InputErrors.runPastImage("\(formatNumber(run.start))-\(formatNumber(run.end))", axis: axis, end: end, size: size)
                }
                return start..<end
            }
        }
        let lattice = try Lattice(width: width, height: height,
                                  stretchX: pixels(x, width, "x"), stretchY: pixels(y, height, "y"))
        try lattice.checkRegions(option: .lattice)
        return lattice
    }
}
