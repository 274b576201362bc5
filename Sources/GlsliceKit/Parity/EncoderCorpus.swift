/// The adversarial corpus for the default encoder's bound against zlib 6 (issue 69,
/// round six): images whose repeats lie where the plan and the matcher's near
/// candidates do not look. Seeded, so a test and `glslice-bench bound` see the same
/// pixels. Straight RGBA; the encoder picks palette, grey or RGB from the colours.
package enum EncoderCorpus {
    package struct Case: Sendable {
        package var name: String
        package var image: PremultipliedImage
    }

    /// Every family at `width` x `height`: rows repeating k rows back, rows shifted s px,
    /// dithers, a screenshot, two-colour noise; each of the first two in 16 colours, 256 and RGBA.
    package static func cases(width: Int, height: Int, seed: UInt64 = 69) -> [Case] {
        var rng = SeededGenerator(seed: seed)
        var cases: [Case] = []
        func add(_ name: String, _ pixel: (Int, Int) -> [UInt8]) {
            var pixels: [UInt8] = []
            pixels.reserveCapacity(width * height * 4)
            for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
            cases.append(Case(name: name, image: PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels))))
        }
        func colours(_ n: Int) -> [[UInt8]] {
            (0..<n).map { _ in [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), 255] }
        }
        func noise(_ count: Int, _ palette: [[UInt8]]?) -> [[UInt8]] {
            (0..<count).map { _ in
                palette.map { $0[Int.random(in: 0..<$0.count, using: &rng)] }
                    ?? [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng),
                        UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 128...255, using: &rng)]
            }
        }
        let kinds: [(String, Int?)] = [("16c", 16), ("256c", 256), ("rgba", nil)]
        for k in [2, 3, 7, 13, 40] {
            for (kind, n) in kinds {
                let rows = noise(k * width, n.map(colours))
                add("repeat-k\(k)-\(kind)") { x, y in rows[(y % k) * width + x] }
            }
        }
        for s in [3, 5, 9, 31] {
            for (kind, n) in kinds {
                let line = noise(width + s * height, n.map(colours))
                add("shift-s\(s)-\(kind)") { x, y in line[y * s + x] }
            }
        }
        let bayer = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
        add("dither-bayer") { x, y in 16 * x / max(1, width) > bayer[(x % 4) + 4 * (y % 4)] ? [255, 255, 255, 255] : [0, 0, 0, 255] }
        let threshold = (0..<(width * height)).map { _ in Int.random(in: 0..<width, using: &rng) }
        add("dither-noise") { x, y in x > threshold[y * width + x] ? [255, 255, 255, 255] : [0, 0, 0, 255] }
        add("twotone-1bit") { _, _ in Bool.random(using: &rng) ? [255, 255, 255, 255] : [0, 0, 0, 255] }
        add("twotone-rgb") { _, _ in Bool.random(using: &rng) ? [200, 30, 60, 255] : [20, 180, 90, 255] }
        // A screenshot: a dark bar with a repeated icon, then rows of glyph-like marks on light grey.
        let glyphs = (0..<40).map { _ in (0..<48).map { _ in Bool.random(using: &rng) } }
        let icon = noise(256, nil).map { [$0[0], $0[1], $0[2], 255] }
        var marks = [Bool](repeating: false, count: width * height)
        for row in stride(from: height / 10 + 8, to: max(height / 10 + 8, height - 12), by: 14) {
            var x = 16
            while x < width - 24 {
                let glyph = glyphs[Int.random(in: 0..<40, using: &rng)]
                for gy in 0..<8 { for gx in 0..<6 where glyph[gy * 6 + gx] { marks[(row + gy) * width + x + gx] = true } }
                x += 7 + (Int.random(in: 0..<100, using: &rng) < 15 ? 12 : 0)
            }
        }
        add("shot-text") { x, y in
            if y < height / 10 {
                let ix = (x - 8) % 40, iy = (y - 4) % 20
                return x >= 8 && y >= 4 && ix < 16 && iy < 16 ? icon[iy * 16 + ix] : [40, 44, 52, 255]
            }
            return marks[y * width + x] ? [30, 30, 30, 255] : [236, 236, 236, 255]
        }
        return cases
    }
}
