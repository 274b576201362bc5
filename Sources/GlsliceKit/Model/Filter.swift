/// Texture filtering; `linear` is the default, as in UIKit and CSS.
public enum Filter: String, CaseIterable, Sendable, Codable {
    case linear
    case nearest

    public init(parsing text: String) throws {
        guard let filter = Filter(rawValue: text.lowercased()) else {
            throw UsageErrors.notAChoice(text, of: Filter.allCases.map(\.rawValue), option: .filter)
        }
        self = filter
    }
}
