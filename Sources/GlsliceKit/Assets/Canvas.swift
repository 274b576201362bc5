/// A premultiplied RGBA8 drawing surface for contact sheets: rectangles,
/// checkerboards, images composited over, and labels in a 3×5 pixel font.
struct Canvas {
    private(set) var image: PremultipliedImage
    var width: Int { image.width }
    var height: Int { image.height }

    init(width: Int, height: Int, background: [UInt8]) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels.replaceSubrange(i..<(i + 4), with: background) }
        image = PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels))
    }

    mutating func set(_ x: Int, _ y: Int, _ p: [UInt8]) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 4
        image.rgba.pixels.replaceSubrange(i..<(i + 4), with: p)
    }

    /// `p` (premultiplied) over what is there.
    mutating func blend(_ x: Int, _ y: Int, _ p: [UInt8]) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 4, keep = 255 - Int(p[3])
        for c in 0..<4 {
            image.rgba.pixels[i + c] = UInt8(min(255, Int(p[c]) + (Int(image.rgba.pixels[i + c]) * keep + 127) / 255))
        }
    }

    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ p: [UInt8]) {
        for yy in y..<(y + h) { for xx in x..<(x + w) { set(xx, yy, p) } }
    }

    /// Light and dark 8-px squares, so that alpha shows.
    mutating func checkerboard(x: Int, y: Int, width w: Int, height h: Int) {
        for yy in 0..<h {
            for xx in 0..<w {
                let v: UInt8 = ((xx / 8) + (yy / 8)) % 2 == 0 ? 204 : 153
                set(x + xx, y + yy, [v, v, v, 255])
            }
        }
    }

    /// `source` magnified `scale` times with nearest sampling, over a checkerboard.
    mutating func draw(_ source: PremultipliedImage, x: Int, y: Int, scale: Int = 1) {
        checkerboard(x: x, y: y, width: source.width * scale, height: source.height * scale)
        for sy in 0..<source.height {
            for sx in 0..<source.width {
                let p = source.rgba[sx, sy]
                for dy in 0..<scale { for dx in 0..<scale { blend(x + sx * scale + dx, y + sy * scale + dy, p) } }
            }
        }
    }

    mutating func outline(x: Int, y: Int, width w: Int, height h: Int, _ p: [UInt8], dashed: Bool = false) {
        for xx in x..<(x + w) where !dashed || (xx - x) % 4 < 2 { blend(xx, y, p); blend(xx, y + h - 1, p) }
        for yy in y..<(y + h) where !dashed || (yy - y) % 4 < 2 { blend(x, yy, p); blend(x + w - 1, yy, p) }
    }

    /// `text` in the 3×5 font, each font pixel `scale` px; returns the width drawn.
    @discardableResult
    mutating func label(_ text: String, x: Int, y: Int, scale: Int = 2, colour: [UInt8] = [20, 20, 20, 255]) -> Int {
        var cx = x
        for ch in text {
            let rows = BitmapFont.glyph(ch)
            for (ry, row) in rows.enumerated() {
                for (rx, bit) in row.enumerated() where bit == "1" {
                    fill(x: cx + rx * scale, y: y + ry * scale, width: scale, height: scale, colour)
                }
            }
            cx += 4 * scale
        }
        return cx - x
    }

    static func labelWidth(_ text: String, scale: Int = 2) -> Int { text.count * 4 * scale }
}
