import Foundation
import Testing
@testable import GlsliceKit

/// The preview page's first caps, from columns written by hand: equal columns
/// stretch, whole periods tile, caps grow outward to whole points.
@Suite struct CapGuessTests {
    /// An image `columns.count` wide and 3 tall whose column x is one grey
    /// level `columns[x]` (0 is transparent), the same down its rows.
    func image(_ columns: [UInt8], height: Int = 3) -> PremultipliedImage {
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for level in columns { pixels += level == 0 ? [0, 0, 0, 0] : [level, level, level, 255] }
        }
        return PremultipliedImage(RGBAImage(width: columns.count, height: height, pixels: pixels))
    }

    @Test func equalColumnsStretchWithCapsInWholePoints() {
        // Columns 2..<7 are equal: caps 2 and 3 px at @1x.
        let columns: [UInt8] = [10, 20, 30, 30, 30, 30, 30, 40, 50, 60]
        let at1x = CapGuess.guess(image(columns), scale: 1)
        #expect(at1x.insets.left == 2 && at1x.insets.right == 3 && at1x.modes.x == .stretch)
        // At @2x the caps grow outward to whole points: 2 px is 1 pt, 3 px becomes 4 px, 2 pt.
        let at2x = CapGuess.guess(image(columns), scale: 2)
        #expect(at2x.insets.left == 1 && at2x.insets.right == 2 && at2x.modes.x == .stretch)
    }

    @Test func wholePeriodsTile() {
        // Two periods of (70, 80, 90) between caps of 2 px.
        let columns: [UInt8] = [10, 20, 70, 80, 90, 70, 80, 90, 30, 40]
        let guess = CapGuess.guess(image(columns), scale: 1)
        #expect(guess.insets.left == 2 && guess.insets.right == 2 && guess.modes.x == .tile)
    }

    @Test func transparentMarginsAreNotACentre() {
        // The equal transparent columns touch the edges; nothing repeats: caps around a 1-px centre.
        let columns: [UInt8] = [0, 0, 0, 10, 20, 30, 20, 10, 0, 0, 0]
        let guess = CapGuess.guess(image(columns), scale: 1)
        #expect(guess.insets.left == 5 && guess.insets.right == 5 && guess.modes.x == .stretch)
    }

    /// texture.png: 16 columns of period 8 between 6-px caps (the optimizer's test counts them too),
    /// and 16 rows that are one period (two brick rows, each its own colour) between 6-px caps
    /// (Scripts/make-fixtures.py): a texture, tiled on both axes. Stretching its rows of equal
    /// lines (the guess before issue 40: insets 6,6,15,6, y stretched) drew vertical stripes.
    @Test func theBrickTextureTilesOnBothAxes() throws {
        let source = try SourceImage.load(path: fixtures.appendingPathComponent("texture.png").path, maxPixels: 1 << 20)
        let guess = CapGuess.guess(source.image, scale: 1)
        #expect(guess.insets == Insets(top: 6, left: 6, bottom: 6, right: 6), "\(guess.insets)")
        #expect(guess.modes.x == .tile && guess.modes.y == .tile, "\(guess.modes)")
    }

    /// A framed texture made here: a `frame`-px border shaded by its distance to the edge
    /// (each ring its own grey, as texture.png's), around `centre × centre` px of `pattern(x, y)`.
    func framed(frame: Int, centre: Int, _ pattern: (Int, Int) -> [UInt8]) -> PremultipliedImage {
        let n = frame * 2 + centre
        var pixels: [UInt8] = []
        for y in 0..<n {
            for x in 0..<n {
                if (frame..<n - frame).contains(x) && (frame..<n - frame).contains(y) {
                    pixels += pattern(x - frame, y - frame) + [255]
                } else {
                    let d = UInt8(min(x, y, n - 1 - x, n - 1 - y))
                    pixels += [40 + 30 * d, 40 + 30 * d, 50 + 30 * d, 255]
                }
            }
        }
        return PremultipliedImage(RGBAImage(width: n, height: n, pixels: pixels))
    }

    /// Bricks: rows of 6 px (5 brick, 1 mortar), every other row offset by half a 12-px brick,
    /// each row its own brick colour: 2 periods across, one period down. Caps are the 4-px frame.
    @Test func madeBricksTileOnBothAxes() {
        let bricks = framed(frame: 4, centre: 24) { x, y in
            let row = y / 6, offset = row % 2 == 1 ? 6 : 0
            let mortar = y % 6 == 5 || (x + offset) % 12 == 11
            return mortar ? [210, 205, 195] : [UInt8(150 + 20 * (row % 4)), 70, 50]
        }
        let guess = CapGuess.guess(bricks, scale: 1)
        #expect(guess.insets == Insets(top: 4, left: 4, bottom: 4, right: 4) && guess.modes == PerAxis(both: .tile), "\(guess)")
    }

    /// A checkerboard of 2-px squares (4 periods each way): periodic on both axes on its own.
    @Test func checksTileOnBothAxes() {
        let checks = framed(frame: 3, centre: 16) { x, y in (x / 2 + y / 2) % 2 == 0 ? [20, 20, 20] : [230, 230, 230] }
        let guess = CapGuess.guess(checks, scale: 1)
        #expect(guess.insets == Insets(top: 3, left: 3, bottom: 3, right: 3) && guess.modes == PerAxis(both: .tile), "\(guess)")
    }

    /// Vertical stripes of period 3: columns repeat, rows are equal; down the stripes tile and
    /// stretch look the same, and the guess tiles both, with the frame's caps.
    @Test func stripesTileOnBothAxes() {
        let stripes = framed(frame: 2, centre: 12) { x, _ in [[200, 40, 40], [40, 200, 40], [40, 40, 200]][x % 3] }
        let guess = CapGuess.guess(stripes, scale: 1)
        #expect(guess.insets == Insets(top: 2, left: 2, bottom: 2, right: 2) && guess.modes == PerAxis(both: .tile), "\(guess)")
    }

    /// Noise (a linear congruential generator): nothing repeats and no two lines are equal,
    /// so no band with detail is stretched: caps around a one-pixel centre on each axis.
    @Test func noiseStretchesOnlyAOnePixelCentre() {
        var state: UInt32 = 99
        let noise = framed(frame: 2, centre: 15) { _, _ in
            (0..<3).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        let guess = CapGuess.guess(noise, scale: 1)
        // 19 px a side: caps of 9 around 1 px, stretched.
        #expect(guess.insets == Insets(top: 9, left: 9, bottom: 9, right: 9) && guess.modes == PerAxis(both: .stretch), "\(guess)")
    }
}
