/// A first guess at a plain PNG's end caps, for the preview page: whole points
/// on each side, around the centre a designer would pick, and the mode that
/// centre wants. Per axis, in this order:
/// 1. the longest run of equal lines (columns for x, rows for y) that touches
///    neither edge: it stretches to any length unchanged, so `stretch`;
/// 2. else the widest centre holding two or more whole periods of its lines
///    (a brick texture): `tile`, which repeats them from the cap;
/// 3. else caps around a one-point centre, stretched (smooth art, such as a
///    gradient, stays smooth; `auto` would tile a point of two pixels at @2x).
/// Of 1. and 2., the one with the larger centre.
/// Caps grow outward to whole points, so a centre of equal lines stays equal.
/// Then, across the axes: a texture tiles on both. When one axis tiles and
/// the other would stretch a run of equal lines (1.), those lines carry the
/// texture's detail, and stretching them turns a brick wall into stripes; so
/// the other axis tiles too, with the tiling axis's caps where they fit (a
/// frame is usually even, and a designer supplies one period of a texture,
/// which no search along that axis alone can see repeat).
package struct CapGuess: Sendable, Equatable {
    /// The caps in points.
    package var insets: Insets
    package var modes: PerAxis<ResizeMode>

    /// One axis: its caps in source pixels (multiples of the point) and its mode.
    struct AxisGuess: Equatable {
        var lead: Int
        var trail: Int
        var mode: ResizeMode
        /// Which rule found it.
        var rule: Rule = .plain

        enum Rule { case equalLines, periods, plain }
    }

    /// Sources larger than this along an axis get the plain guess (3.) on it:
    /// the period search is quadratic in the length.
    static let searchLimit = 2048

    package static func guess(_ image: PremultipliedImage, scale: Double) -> CapGuess {
        // Caps in whole points are whole pixels only at a whole-number scale; else whole pixels.
        let point = scale >= 1 && scale == scale.rounded() ? Int(scale) : 1
        var x = axis(RegionAnalysis.lineNumbers(Segment(0, image.width, scalable: true), axis: .x, image), point: point)
        var y = axis(RegionAnalysis.lineNumbers(Segment(0, image.height, scalable: true), axis: .y, image), point: point)
        if x.rule == .periods, y.rule == .equalLines { y = tiled(y, like: x, length: image.height) }
        if y.rule == .periods, x.rule == .equalLines { x = tiled(x, like: y, length: image.width) }
        let points = { (pixels: Int) in Double(pixels) / scale }
        return CapGuess(insets: Insets(top: points(y.lead), left: points(x.lead), bottom: points(y.trail), right: points(x.trail)),
                        modes: PerAxis(x: x.mode, y: y.mode))
    }

    /// `guess` tiled, across a texture whose other axis tiles with caps `other`:
    /// those caps when they leave a centre, else its own.
    static func tiled(_ guess: AxisGuess, like other: AxisGuess, length: Int) -> AxisGuess {
        let fits = other.lead + other.trail < length
        return AxisGuess(lead: fits ? other.lead : guess.lead, trail: fits ? other.trail : guess.trail, mode: .tile, rule: .periods)
    }

    /// The guess for one axis whose lines are numbered `lines` (equal lines, equal numbers).
    static func axis(_ lines: [Int], point: Int) -> AxisGuess {
        let n = lines.count
        /// `pixels` rounded up to whole points.
        func up(_ pixels: Int) -> Int { (pixels + point - 1) / point * point }
        guard n > point else { return AxisGuess(lead: 0, trail: 0, mode: .stretch) }
        var found: [AxisGuess] = []
        if let run = longestInnerRun(lines), up(run.start) + up(n - run.end) < n {
            found.append(AxisGuess(lead: up(run.start), trail: up(n - run.end), mode: .stretch, rule: .equalLines))
        }
        if n <= searchLimit, let periodic = widestPeriodicCentre(lines, point: point) { found.append(periodic) }
        // The larger centre: a brick texture's two periods over the two equal columns of its mortar.
        if let best = found.min(by: { $0.lead + $0.trail < $1.lead + $1.trail }) { return best }
        let units = n / point
        let lead = (units - 1) / 2 * point
        return AxisGuess(lead: lead, trail: max(0, (units - 1 - (units - 1) / 2) * point), mode: .stretch)
    }

    /// The longest run of two or more equal neighbouring lines touching
    /// neither end (transparent margins are not a centre), or nil.
    static func longestInnerRun(_ lines: [Int]) -> (start: Int, end: Int)? {
        var best: (start: Int, end: Int)?
        var start = 0
        for i in 1...lines.count {
            guard i == lines.count || lines[i] != lines[start] else { continue }
            if start > 0, i < lines.count, i - start >= 2, i - start > (best.map { $0.end - $0.start } ?? 0) { best = (start, i) }
            start = i
        }
        return best
    }

    /// The smallest caps (whole points, the two within a point of each other
    /// first) whose centre is two or more whole periods of its lines.
    static func widestPeriodicCentre(_ lines: [Int], point: Int) -> AxisGuess? {
        let n = lines.count
        for total in stride(from: 0, through: n - 4, by: point) {
            // Caps adding up to `total`, the most even split first.
            let half = total / 2 / point * point
            for lead in Set([half, total - half]).sorted() {
                let trail = total - lead
                let centre = Array(lines[lead..<(n - trail)])
                let period = RegionAnalysis.smallestPeriod(centre)
                if period >= 2, centre.count % period == 0, centre.count / period >= 2 {
                    return AxisGuess(lead: lead, trail: trail, mode: .tile, rule: .periods)
                }
            }
        }
        return nil
    }
}
