/// End caps in UIKit order (top, left, bottom, right), in points of the source.
public struct Insets: Sendable, Equatable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)

    /// Parses `T,L,B,R` (one value sets all four).
    public init(parsing text: String) throws {
        try self.init(parsing: text, option: .insets)
    }

    /// Parses `T,L,B,R` given as `option` (`--insets`, `--border-width`, `--outset`).
    package init(parsing text: String, option: RequestOption) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let values = parts.compactMap { Double($0) }
        guard values.count == parts.count, values.count == 4 || values.count == 1,
              values.allSatisfy({ $0.isFinite }) else {
            throw UsageErrors.notInsets(option: option, got: text)
        }
        guard values.allSatisfy({ $0 >= 0 }) else {
            throw UsageErrors.negative(option: option, got: text)
        }
        if values.count == 1 {
            self.init(top: values[0], left: values[0], bottom: values[0], right: values[0])
        } else {
            self.init(top: values[0], left: values[1], bottom: values[2], right: values[3])
        }
    }

    public var formatted: String {
        [top, left, bottom, right].map(formatNumber).joined(separator: ",")
    }
}

/// Insets converted to whole source pixels.
package struct PixelInsets: Sendable, Hashable, Codable {
    package static let zero = PixelInsets(top: 0, left: 0, bottom: 0, right: 0)

    package var top: Int
    package var left: Int
    package var bottom: Int
    package var right: Int

    package init(top: Int, left: Int, bottom: Int, right: Int) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Points × source scale; each must land on a whole source pixel.
    package init(_ insets: Insets, sourceScale: Double) throws {
        func convert(_ value: Double, _ name: String) throws -> Int {
            guard let px = wholePixels(value * sourceScale) else {
                throw InputErrors.insetOffPixelGrid(side: name, points: formatNumber(value), scale: sourceScale)
            }
            return px
        }
        self.init(top: try convert(insets.top, "top"), left: try convert(insets.left, "left"),
                  bottom: try convert(insets.bottom, "bottom"), right: try convert(insets.right, "right"))
    }
}
