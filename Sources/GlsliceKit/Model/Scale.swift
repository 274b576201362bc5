import Foundation

/// Display scale of a source or an output: 1, 2, 3 (any positive number).
package enum Scale {
    /// The `@2x`/`@3x` suffix before the extension (`button@2x.png`,
    /// `button@2x.9.png`), or nil when the name has none.
    static func inferred(fromFileName path: String) -> Double? {
        let name = PathText.name(of: path).lowercased()
        var stem = name
        for ext in [".9.png", ".png"] where stem.hasSuffix(ext) {
            stem = String(stem.dropLast(ext.count))
            break
        }
        guard let at = stem.lastIndex(of: "@"), stem.hasSuffix("x") else { return nil }
        let digits = stem[stem.index(after: at)..<stem.index(before: stem.endIndex)]
        guard let value = Double(digits), value > 0, value.isFinite else { return nil }
        return value
    }

    /// The source scale for `path`: its `@Nx` suffix, else `option`, else 1.
    /// An option that contradicts the suffix is refused rather than guessed at.
    package static func source(of path: String, option: Double?) throws -> Double {
        let inferred = inferred(fromFileName: path)
        if let inferred, let option, abs(inferred - option) > 1e-9 {
            throw UsageErrors.scaleContradictsName(path, given: option, inferred: inferred)
        }
        return inferred ?? option ?? 1
    }

    /// Parses a scale option value such as `2` or `1.5`.
    package static func parse(_ text: String, option: RequestOption) throws -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0 else {
            throw UsageErrors.notAPositiveNumber(option: option, got: text)
        }
        return value
    }
}

/// Converts a real pixel count that must be whole (points × scale) to an Int.
func wholePixels(_ value: Double) -> Int? {
    let rounded = value.rounded()
    guard abs(value - rounded) < 1e-6, rounded.magnitude < 1e15 else { return nil }
    return Int(rounded)
}

package func formatNumber(_ value: Double) -> String {
    if let whole = wholePixels(value), Double(whole) == value { return String(whole) }
    return String(value)
}
