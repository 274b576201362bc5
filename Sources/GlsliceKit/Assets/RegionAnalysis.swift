/// Which way a source band runs: an x band is a run of columns (a scalable x
/// segment over the whole height), a y band a run of rows.
public enum Axis: String, Sendable, Codable {
    case x, y
}

/// What one scalable segment's band holds, by the guidance's rules for the
/// smallest image that gives the look. A band is the segment's pixels across
/// the whole source (caps included), because that is what shrinking it removes.
public enum BandContent: Sendable, Equatable {
    /// Every pixel the same colour: 1 px would do.
    case solid
    /// Every line across the band the same, changing only along the other axis
    /// (a gradient): 1 px across would do.
    case gradient
    /// The lines repeat every `period` px (at least twice in the band).
    case periodic(period: Int)
    /// None of these: the band is needed as drawn.
    case none
}

/// One scalable segment's analysis.
public struct BandAnalysis: Sendable, Equatable {
    public var axis: Axis
    /// The segment, in source pixels.
    public var segment: Segment
    public var content: BandContent
    /// Source pixels across the band (the source's height for an x band).
    public var across: Int

    /// True when the band holds a whole number of its periods (a periodic band only).
    public var wholePeriods: Bool {
        if case .periodic(let p) = content { return segment.length % p == 0 }
        return false
    }

    /// The band's smallest length that tiles the same; stretching the same needs a 1-px band.
    public var smallestLength: Int {
        switch content {
        case .solid, .gradient: 1
        case .periodic(let p): wholePeriods ? p : segment.length
        case .none: segment.length
        }
    }

    /// Pixels the source could lose by shrinking this band to `smallestLength`.
    public var pixelsToLose: Int { (segment.length - smallestLength) * across }
}

/// Looks at each scalable segment of a lattice on a source's pixels.
public enum RegionAnalysis {
    public static func analyze(_ image: PremultipliedImage, lattice: Lattice) -> [BandAnalysis] {
        lattice.x.filter(\.scalable).map { band($0, axis: .x, image) }
            + lattice.y.filter(\.scalable).map { band($0, axis: .y, image) }
    }

    static func band(_ segment: Segment, axis: Axis, _ image: PremultipliedImage) -> BandAnalysis {
        let across = axis == .x ? image.height : image.width
        /// Line `i` of the band (a column for x, a row for y) equals line `j`.
        func same(_ i: Int, _ j: Int) -> Bool {
            for t in 0..<across {
                let a = axis == .x ? image.rgba[i, t] : image.rgba[t, i]
                let b = axis == .x ? image.rgba[j, t] : image.rgba[t, j]
                if a != b { return false }
            }
            return true
        }
        let n = segment.length, s0 = segment.start
        var content = BandContent.none
        if (s0..<segment.end).allSatisfy({ same($0, s0) }) {
            content = isOneColour(segment, axis: axis, image) ? .solid : .gradient
        } else if n >= 4 {
            for p in 2...(n / 2) where (s0..<(segment.end - p)).allSatisfy({ same($0, $0 + p) }) {
                content = .periodic(period: p)
                break
            }
        }
        return BandAnalysis(axis: axis, segment: segment, content: content, across: across)
    }

    private static func isOneColour(_ segment: Segment, axis: Axis, _ image: PremultipliedImage) -> Bool {
        let first = axis == .x ? image.rgba[segment.start, 0] : image.rgba[0, segment.start]
        let across = axis == .x ? image.height : image.width
        for t in 0..<across {
            if (axis == .x ? image.rgba[segment.start, t] : image.rgba[t, segment.start]) != first { return false }
        }
        return true
    }
}
