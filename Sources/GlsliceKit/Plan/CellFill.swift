/// What a cell whose source pixels are all one premultiplied colour is filled
/// with, without sampling (Skia's lattice `kFixedColor`, aapt2's
/// `regionColors`). Sampling such a cell gives that colour at every pixel
/// under both filters (a blend of equal texels is exact), so filling it gives
/// the same bytes, for a cost that does not grow with the cell's source size.
package enum CellFill: Sendable, Equatable, Hashable {
    /// Every source pixel is fully transparent: nothing is drawn.
    case transparent
    /// Every source pixel is this premultiplied RGBA, as its four bytes sit in memory.
    case colour(UInt32)

    /// The premultiplied value to write, as the four bytes sit in memory.
    package var premultiplied: UInt32 {
        switch self {
        case .transparent: 0
        case .colour(let value): value
        }
    }

    /// The fill of `rect` of `image`, or nil when its pixels differ (stops at the first that does).
    package static func of(_ rect: (x: Range<Int>, y: Range<Int>), in image: PremultipliedImage) -> CellFill? {
        guard !rect.x.isEmpty, !rect.y.isEmpty, rect.x.upperBound <= image.width, rect.y.upperBound <= image.height else {
            return nil
        }
        return image.rgba.pixels.withUnsafeBytes { raw -> CellFill? in
            guard let base = raw.baseAddress else { return nil }
            let texels = base.assumingMemoryBound(to: UInt32.self)
            let first = texels[rect.y.lowerBound * image.width + rect.x.lowerBound]
            for y in rect.y {
                let row = texels + y * image.width
                for x in rect.x where row[x] != first { return nil }
            }
            // Premultiplied alpha 0 is all zeros, so one compare says transparent.
            return first == 0 ? .transparent : .colour(first)
        }
    }

    /// Straight `#RRGGBBAA`, as `inspect` shows it.
    package var hex: String {
        let value = premultiplied
        let premultiplied = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
        let straight = RGBAImage(width: 1, height: 1, pixels: premultiplied)
        let bytes = PremultipliedImage(straight).straight().rgba.pixels
        return "#" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }
}
