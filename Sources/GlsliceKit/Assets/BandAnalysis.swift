/// One scalable segment's analysis.
struct BandAnalysis: Sendable, Equatable {
    var axis: Axis
    /// The segment, in source pixels.
    package var segment: Segment
    var content: BandContent
    /// Source pixels across the band (the source's height for an x band).
    var across: Int

    /// True when the band holds a whole number of its periods (a periodic band only).
    var wholePeriods: Bool {
        if case .periodic(let p) = content { return segment.length % p == 0 }
        return false
    }

    /// The band's smallest length that tiles the same; stretching the same needs a 1-px band.
    var smallestLength: Int {
        switch content {
        case .solid, .gradient: 1
        case .periodic(let p): wholePeriods ? p : segment.length
        case .none: segment.length
        }
    }

    /// Pixels the source could lose by shrinking this band to `smallestLength`.
    var pixelsToLose: Int { (segment.length - smallestLength) * across }
}
