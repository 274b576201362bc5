
/// The requested output size: points at the output scale, or pixels directly.
public enum OutputSize: Sendable, Equatable {
    case points(width: Double, height: Double)
    case pixels(PixelSize)

    /// The size from `size` (points) or `pixels`, exactly one of which must be
    /// given; `style` spells the two options in the message that names both.
    public static func parse(size: String?, pixels: String?, style: OptionStyle) throws -> OutputSize {
        switch (size, pixels) {
        case (let size?, nil): return try parsePoints(size)
        case (nil, let pixels?): return try parsePixels(pixels)
        case (nil, nil):
            throw UsageErrors.noSize(style.name(.size), style.name(.pixels))
        case (_?, _?): throw UsageErrors.sizeAndPixels(style.name(.size), style.name(.pixels))
        }
    }

    /// Parses `WxH` in points (`--size`).
    static func parsePoints(_ text: String) throws -> OutputSize {
        let (w, h) = try parsePair(text, option: .size, unit: "points")
        return .points(width: w, height: h)
    }

    /// Parses `WxH` in pixels (`--pixels`); both must be whole.
    static func parsePixels(_ text: String) throws -> OutputSize {
        let (w, h) = try parsePair(text, option: .pixels, unit: "pixels")
        guard let wi = wholePixels(w), let hi = wholePixels(h), Double(wi) == w, Double(hi) == h else {
            throw UsageErrors.notWholePixels(option: .pixels, got: text)
        }
        return .pixels(PixelSize(width: wi, height: hi))
    }

    private static func parsePair(_ text: String, option: RequestOption, unit: String) throws -> (Double, Double) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite, h.isFinite else {
            throw UsageErrors.notASize(option: option, unit: unit, got: text)
        }
        guard w > 0, h > 0 else {
            throw UsageErrors.notPositive(option: option, got: text)
        }
        return (w, h)
    }

    /// The size in pixels at `scale`; points must land on whole pixels.
    public func pixels(atScale scale: Double) throws -> PixelSize {
        switch self {
        case .pixels(let size):
            return size
        case .points(let w, let h):
            guard let wp = wholePixels(w * scale), let hp = wholePixels(h * scale) else {
                throw InputErrors.offPixelGrid(nil, points: "\(formatNumber(w))x\(formatNumber(h))", scale: scale, kind: .usage, option: .size)
            }
            guard wp > 0, hp > 0 else {
                throw UsageErrors.emptySize("\(formatNumber(w))x\(formatNumber(h))", scale: scale)
            }
            return PixelSize(width: wp, height: hp)
        }
    }
}
