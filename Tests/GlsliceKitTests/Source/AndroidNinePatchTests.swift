import Foundation
import Testing
@testable import GlsliceKit

/// Nine-patches read and drawn as Android's resource compiler (aapt2) and
/// Android draw them (docs/RENDERING.md §7), on the small fixtures that
/// Scripts/make-fixtures.py writes for each rule. Expected values are worked
/// out by hand from the fixture's pixels.
@Suite struct AndroidNinePatchTests {
    static func load(_ name: String) throws -> SourceImage {
        try SourceImage.load(path: fixtures.appendingPathComponent("android/\(name)").path, maxPixels: 1 << 20)
    }

    static func render(_ source: SourceImage, _ width: Int, _ height: Int, mode: ResizeMode? = nil) throws -> PremultipliedImage {
        var request = RenderRequest(size: .pixels(PixelSize(width: width, height: height)))
        if let mode { request.modes = PerAxis(both: mode) }
        return try Backend.cpu.image(PlanBuilder.plan(request, source: source), source: source.image)
    }

    static func refusal(_ name: String) -> String {
        do {
            _ = try load(name)
            return "accepted"
        } catch let error as GlsliceError {
            return error.kind == .badInput ? error.message : "wrong kind: \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    /// Caps 40 | run 60 100 140 180 | caps 220, drawn 40 px wide: the run is
    /// stretched over 36 px, as Android does, not tiled.
    @Test func gradientRunStretchesByDefault() throws {
        let source = try Self.load("gradient.9.png")
        let byDefault = try Self.render(source, 40, 8)
        #expect(byDefault == (try Self.render(source, 40, 8, mode: .stretch)))
        #expect(byDefault != (try Self.render(source, 40, 8, mode: .tile)))
        // x = 19: u = 2 + 17.5 × 4/36 = 3.944, t = 3.444: 100 × 0.556 + 140 × 0.444 = 117.8.
        #expect(byDefault.rgba[19, 3] == [118, 118, 118, 255])
        // Tiled (--mode tile still overrides): u = 2 + 17.5 mod 4 = 3.5, texel 3 exactly.
        #expect(try Self.render(source, 40, 8, mode: .tile).rgba[19, 3] == [100, 100, 100, 255])
        #expect(byDefault.rgba[2, 0] == [60, 60, 60, 255] && byDefault.rgba[37, 0] == [180, 180, 180, 255])
    }

    @Test func compiledSourcesStretchByDefaultToo() throws {
        let source = try SourceImage.load(path: fixtures.appendingPathComponent("bubble.compiled.9.png").path, maxPixels: 1 << 20)
        #expect(source.hints.defaultMode == .stretch)
        #expect(try Self.render(source, 90, 41) == (try Self.render(source, 90, 41, mode: .stretch)))
    }

    @Test func blackCornersAreNotRead() throws {
        let source = try Self.load("corners.9.png")
        #expect(source.size == PixelSize(width: 3, height: 3))
        #expect(source.hints.lattice?.x == [Segment(0, 1, scalable: false), Segment(1, 2, scalable: true), Segment(2, 3, scalable: false)])
    }

    /// Artwork 0 40 80 120 with no top markers, drawn 8 px wide: the whole row
    /// stretches. x = 1: u = 0.75, t = 0.25: 0 × 0.75 + 40 × 0.25 = 10, and so on.
    @Test func axisWithoutMarkersScalesWhole() throws {
        let source = try Self.load("whole-axis.9.png")
        #expect(source.hints.lattice?.x == [Segment(0, 4, scalable: true)])
        let out = try Self.render(source, 8, 3)
        #expect((0..<8).map { out.rgba[$0, 0][0] } == [0, 10, 30, 50, 70, 90, 110, 120])
        // The compiled form with zero x divs does the same.
        var chunk: [UInt8] = [1, 0, 2, 0] + [UInt8](repeating: 0, count: 28)
        chunk += [0, 0, 0, 1, 0, 0, 0, 2]
        let compiled = try NinePatch.compiled(chunk: Data(chunk), width: 4, height: 3)
        #expect(compiled.lattice == source.hints.lattice)
    }

    /// Markers of 0x00FF: black by their high byte (accurate scaling would make them 1).
    /// The artwork's 0x12FF scales accurately to 19 (its high byte is 18).
    @Test func sixteenBitMarkersAreReadByTheirHighByte() throws {
        let source = try Self.load("sixteen.9.png")
        #expect(source.hints.lattice?.x == [Segment(0, 1, scalable: false), Segment(1, 3, scalable: true), Segment(3, 4, scalable: false)])
        #expect(source.hints.lattice?.y == [Segment(0, 1, scalable: false), Segment(1, 2, scalable: true), Segment(2, 3, scalable: false)])
        #expect(source.image.rgba[0, 0] == [19, 19, 19, 255])
    }

    @Test(arguments: [
        ("red-middle.9.png", "layout bounds on bottom border must start at edge (a red run at (3,7) touches neither end)"),
        ("red-three.9.png", "too many layout bounds sections on right border (a third red run at (7,6))"),
        ("red-top.9.png", "unexpected optical bounds (red pixel) on top border at x=4"),
        ("regions.9.png", "too many regions in 9-patch: 17 columns x 9 rows = 153 regions; aapt2 allows 127"),
        ("invalid-colour.9.png", "found an invalid color at (4,0): #808080FF"),
    ])
    func aapt2RefusalsAreRefusedWithTheirPosition(_ name: String, _ message: String) {
        let refusal = Self.refusal(name)
        #expect(refusal.contains(message), "\(name): \(refusal)")
    }

    @Test func paddingAndOpticalBoundsFromRawAndCompiled() throws {
        // Bottom "rr kkkk r" over 9 px, right " kkk r" over 6 px.
        let expected = NinePatchBounds(padding: PixelInsets(top: 1, left: 3, bottom: 2, right: 2),
                                       optical: PixelInsets(top: 0, left: 2, bottom: 1, right: 1))
        let raw = try Self.load("optical.9.png")
        #expect(raw.hints.ninePatch == expected)
        let compiled = try Self.load("optical.compiled.png")
        #expect(compiled.hints.ninePatch == expected)
        #expect(compiled.hints.lattice == raw.hints.lattice)
        #expect(compiled.image == raw.image)
    }

    @Test func regionCountFollowsAapt2() {
        #expect(NinePatch.regionCount([], 10) == 0)
        #expect(NinePatch.regionCount([0..<10], 10) == 1)
        #expect(NinePatch.regionCount([2..<4], 10) == 3)
        #expect(NinePatch.regionCount([0..<4], 10) == 2)
        #expect(NinePatch.regionCount([0..<2, 4..<6, 8..<10], 10) == 5)
    }
}
