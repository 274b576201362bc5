/// How hard the PNG encoder compresses. Every level writes rows with the None
/// filter (`PNG/ScanlineCompressor.swift`): on the bench manifest's 2,400
/// nine-slice outputs None at level 6 gave 3.94 MB against 4.41 MB for a fixed
/// Up filter and 4.07 MB for libpng's adaptive choice, at 1.6× adaptive's speed.
public enum Compression: String, CaseIterable, Sendable, Codable {
    /// The plan's repeats written as deflate matches without searching, a
    /// one-probe matcher for the rest, each row on its own so a GPU can encode it
    /// too (`PNG/RepeatDeflater.swift`): 0.3–0.9× `default`'s encode time at
    /// 1.01–1.21× its bytes (docs/BENCHMARKS.md).
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
