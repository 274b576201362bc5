/// How hard the PNG encoder compresses (zlib level; see `PNG/PNGEncoder.swift` for
/// why rows are never filtered).
public enum Compression: String, CaseIterable, Sendable, Codable {
    /// zlib level 1: about 1.6× the bytes, for scratch renders.
    case fast
    /// zlib level 6.
    case `default`
    /// zlib level 9: about 7% smaller, 1.5× the encode time.
    case small

    public init(parsing text: String) throws {
        guard let value = Compression(rawValue: text.lowercased()) else {
            throw UsageErrors.notAChoice(text, of: Compression.allCases.map(\.rawValue), option: .compression)
        }
        self = value
    }
}
