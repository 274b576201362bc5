/// How the scalable segments of one axis fill their destination (docs/RENDERING.md §3).
public enum ResizeMode: String, CaseIterable, Sendable, Codable {
    /// Scale the segment to its destination length.
    case stretch
    /// Repeat at the source size, phase at the segment's start (UIKit, Godot, Unity).
    case tile
    /// `stretch` for 1-pixel segments, else `tile` (UIKit's behaviour).
    case auto
    /// CSS `repeat`: whole tiles centred, partial tiles at both ends.
    case `repeat`
    /// CSS `round`: tiles rescaled so a whole number fits.
    case round
    /// CSS `space`: whole tiles only, the leftover spread as transparent gaps.
    case space

    public init(parsing text: String) throws { try self.init(parsing: text, option: .mode) }

    /// `option` names which of `mode`, `mode-x` and `mode-y` gave `text`.
    package init(parsing text: String, option: RequestOption) throws {
        guard let mode = ResizeMode(rawValue: text.lowercased()) else {
            throw UsageErrors.notAChoice(text, of: ResizeMode.allCases.map(\.rawValue), option: option)
        }
        self = mode
    }
}
