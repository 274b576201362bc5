/// What happens along an axis whose output is shorter than its caps
/// (docs/RENDERING.md §2 step 3).
public enum SmallTarget: String, CaseIterable, Sendable, Codable {
    /// Every cap shrinks by the same factor to fit (UIKit, CSS, Android): the default.
    case proportional
    /// The caps keep their size and are cut (Godot's NinePatchRect): the caps
    /// before the first scalable segment keep their start, the rest is drawn
    /// from the far end, and where the two meet the leading caps win.
    case clip

    public init(parsing text: String) throws {
        guard let value = SmallTarget(rawValue: text.lowercased()) else {
            throw UsageErrors.notAChoice(text, of: SmallTarget.allCases.map(\.rawValue), option: .small)
        }
        self = value
    }
}
