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

    /// texture.png: 16 columns of period 8 between 6-px caps (the optimizer's test counts them too).
    @Test func theBrickTextureTilesTwoPeriods() throws {
        let source = try SourceImage.load(path: fixtures.appendingPathComponent("texture.png").path, maxPixels: 1 << 20)
        let guess = CapGuess.guess(source.image, scale: 1)
        #expect(guess.insets.left == 6 && guess.insets.right == 6 && guess.modes.x == .tile)
    }
}
