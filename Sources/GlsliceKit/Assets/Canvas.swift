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

/// A 3×5 pixel font: digits, letters (drawn as capitals) and the few signs
/// a label needs. Unknown characters draw as a box.
enum BitmapFont {
    static let height = 5

    static func glyph(_ ch: Character) -> [String] {
        let key = ch == "x" ? "x" : Character(ch.uppercased())
        let bits = glyphs[key] ?? "111101101101111"
        return (0..<5).map { row in
            let start = bits.index(bits.startIndex, offsetBy: row * 3)
            return String(bits[start..<bits.index(start, offsetBy: 3)])
        }
    }

    private static let glyphs: [Character: String] = [
        "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
        "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001001001001",
        "8": "111101111101111", "9": "111101111001111",
        "A": "010101111101101", "B": "110101110101110", "C": "011100100100011", "D": "110101101101110",
        "E": "111100110100111", "F": "111100110100100", "G": "011100101101011", "H": "101101111101101",
        "I": "111010010010111", "J": "001001001101010", "K": "101101110101101", "L": "100100100100111",
        "M": "101111111101101", "N": "110101101101101", "O": "010101101101010", "P": "110101110100100",
        "Q": "010101101110011", "R": "110101110101101", "S": "011100010001110", "T": "111010010010010",
        "U": "101101101101111", "V": "101101101101010", "W": "101101111111101", "X": "101101010101101",
        "Y": "101101010010010", "Z": "111001010100111",
        "x": "000101010101000", " ": "000000000000000", ".": "000000000000010", "-": "000000111000000",
        ":": "000010000010000", "@": "010101111100011", "/": "001001010100100", "(": "010100100100010",
        ")": "010001001001010", "=": "000111000111000", ",": "000000000010100", "_": "000000000000111",
    ]
}
