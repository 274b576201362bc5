/// What one scalable segment's band holds, by the guidance's rules for the
/// smallest image that gives the look. A band is the segment's pixels across
/// the whole source (caps included), because that is what shrinking it removes.
package enum BandContent: Sendable, Equatable {
    /// Every pixel the same colour: 1 px would do.
    case solid
    /// Every line across the band the same, changing only along the other axis
    /// (a gradient): 1 px across would do.
    case gradient
    /// The lines repeat every `period` px (at least twice in the band).
    case periodic(period: Int)
    /// None of these: the band is needed as drawn.
    case none

    /// The name reports and JSON use.
    package var name: String {
        switch self {
        case .solid: "solid"
        case .gradient: "gradient"
        case .periodic: "periodic"
        case .none: "none"
        }
    }
}
