import Foundation
import Testing
@testable import GlsliceKit

/// Raw Android `.9.png` markers (docs/RENDERING.md §7), on images written out by hand.
@Suite struct NinePatchTests {
    static let o: [UInt8] = [0, 0, 0, 0]        // neutral (transparent)
    static let k: [UInt8] = [0, 0, 0, 255]      // black marker
    static let r: [UInt8] = [255, 0, 0, 255]    // red (optical bounds)

    static func grey(_ v: UInt8) -> [UInt8] { [v, v, v, 255] }

    /// Rows of pixels → a straight image.
    static func image(_ rows: [[[UInt8]]]) -> StraightImage {
        StraightImage(RGBAImage(width: rows[0].count, height: rows.count, pixels: rows.flatMap { $0.flatMap { $0 } }))
    }

    /// A 5×1 artwork 10…50 with stretch markers over artwork pixels 1 and 3.
    static let twoRuns = image([
        [o, o, k, o, k, o, o],
        [k, grey(10), grey(20), grey(30), grey(40), grey(50), o],
        [o, o, o, o, o, o, o],
    ])

    @Test func markersGiveTheLattice() throws {
        let patch = try NinePatch(parsing: Self.twoRuns)
        #expect(patch.artwork.width == 5 && patch.artwork.height == 1)
        #expect(patch.artwork.rgba.pixels == [10, 20, 30, 40, 50].flatMap(Self.grey))
        #expect(patch.lattice.x == [Segment(0, 1, scalable: false), Segment(1, 2, scalable: true), Segment(2, 3, scalable: false),
                                    Segment(3, 4, scalable: true), Segment(4, 5, scalable: false)])
        #expect(patch.lattice.y == [Segment(0, 1, scalable: true)])
        // No padding markers: the content box follows the first and last stretch runs.
        #expect(patch.padding == PixelInsets(top: 0, left: 1, bottom: 0, right: 1))
    }

    @Test func extraSpaceIsSharedByTheStretchRuns() throws {
        // 9 px: caps 10, 30, 50 keep 1 px each; each 1-px run takes 3.
        let patch = try NinePatch(parsing: Self.twoRuns)
        let plan = try PlanBuilder.plan(lattice: patch.lattice, size: PixelSize(width: 9, height: 1), k: 1,
                                  modes: PerAxis(both: .auto), filter: .linear, fillCenter: true)
        let out = try Backend.cpu.image(plan, source: patch.artwork.premultiplied())
        #expect(out.rgba.pixels == [10, 20, 20, 20, 30, 40, 40, 40, 50].flatMap(Self.grey))
    }

    @Test func paddingAndOpticalBounds() throws {
        let o = Self.o, k = Self.k, r = Self.r, g = Self.grey(99)
        let patch = try NinePatch(parsing: Self.image([
            [o, o, k, o, o, o],
            [o, g, g, g, g, k],
            [k, g, g, g, g, k],
            [o, g, g, g, g, o],
            [o, r, k, k, r, o],
        ]))
        #expect(patch.padding == PixelInsets(top: 0, left: 1, bottom: 1, right: 1))
    }

    @Test func whiteNeutral() throws {
        let w: [UInt8] = [255, 255, 255, 255], k = Self.k, g = Self.grey(7)
        let patch = try NinePatch(parsing: Self.image([[w, k, w], [k, g, w], [w, w, w]]))
        #expect(patch.artwork.rgba.pixels == g)
    }

    @Test(arguments: [
        ("too small", [[o, k], [k, o]], "at least 3x3"),
        ("grey marker", [[o, grey(128), o], [k, grey(1), o], [o, o, o]], "invalid color at (1,0): #808080FF"),
        ("red on top", [[o, r, o], [k, grey(1), o], [o, o, o]], "unexpected optical bounds (red pixel) on top border at x=1"),
        ("red on left", [[o, k, o], [r, grey(1), o], [o, o, o]], "unexpected optical bounds (red pixel) on left border at y=1"),
        ("half-transparent black", [[o, [0, 0, 0, 128], o], [k, grey(1), o], [o, o, o]], "invalid color at (1,0)"),
        ("white in a transparent border", [[o, [255, 255, 255, 255], o], [k, grey(1), o], [o, o, o]], "invalid color at (1,0)"),
        ("grey neutral", [[grey(3), k, o], [k, grey(1), o], [o, o, o]], "top-left corner pixel (0,0) is #030303FF"),
        ("black top-left corner", [[k, k, o], [k, grey(1), o], [o, o, o]], "top-left corner pixel (0,0) is #000000FF"),
    ] as [(String, [[[UInt8]]], String)])
    func malformedMarkersNameTheirPosition(_ name: String, _ rows: [[[UInt8]]], _ message: String) {
        #expect(throws: GlsliceError.self) { try NinePatch(parsing: Self.image(rows)) }
        do {
            _ = try NinePatch(parsing: Self.image(rows))
        } catch let error as GlsliceError {
            #expect(error.message.contains(message), "\(name): \(error.message)")
            #expect(error.kind == .badInput)
            // The position named in the words is a value too.
            if message.contains("invalid color at (1,0)") { #expect(error.pixel == PixelPosition(x: 1, y: 0)) }
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func twoPaddingRunsOnAnEdge() {
        let o = Self.o, k = Self.k, g = Self.grey(1)
        #expect(throws: GlsliceError.self) {
            try NinePatch(parsing: Self.image([[o, k, o, o, o, o], [k, g, g, g, g, o], [o, k, o, k, o, o]]))
        }
    }

    @Test func fixtureBubbleLoadsFromItsName() throws {
        let source = try SourceImage.load(path: fixtures.appendingPathComponent("bubble.9.png").path, maxPixels: 1 << 20)
        #expect(source.size == PixelSize(width: 26, height: 22))
        #expect(source.hints.lattice?.x.filter(\.scalable) == [Segment(8, 10, scalable: true), Segment(16, 18, scalable: true)])
        #expect(source.hints.lattice?.y.filter(\.scalable) == [Segment(8, 10, scalable: true)])
        // Insets would contradict the markers.
        let options = RenderRequest(size: .pixels(PixelSize(width: 60, height: 40)), insets: Insets(top: 1, left: 1, bottom: 1, right: 1))
        #expect(throws: GlsliceError.self) { try PlanBuilder.plan(options, source: source) }
        // The tail stays centred: both runs grow by the same amount.
        let plan = try PlanBuilder.plan(lattice: try #require(source.hints.lattice), size: PixelSize(width: 60, height: 40), k: 1,
                                  modes: PerAxis(both: .stretch), filter: .linear, fillCenter: true)
        #expect(plan.xSpans.map(\.destination.count) == [8, 19, 6, 19, 8])
    }
}

private let o = NinePatchTests.o, k = NinePatchTests.k, r = NinePatchTests.r
private func grey(_ v: UInt8) -> [UInt8] { NinePatchTests.grey(v) }

/// Compiled nine-patches: the `npTc` chunk Android's resource compiler writes.
@Suite struct CompiledNinePatchTests {
    @Test func compiledBubbleRendersLikeTheRawOne() throws {
        let raw = try SourceImage.load(path: fixtures.appendingPathComponent("bubble.9.png").path, maxPixels: 1 << 20)
        let compiled = try SourceImage.load(path: fixtures.appendingPathComponent("bubble.compiled.9.png").path, maxPixels: 1 << 20)
        #expect(compiled.hints.lattice == raw.hints.lattice)
        #expect(compiled.image == raw.image)
        let options = RenderRequest(size: .pixels(PixelSize(width: 90, height: 41)))
        let a = try Backend.cpu.image(PlanBuilder.plan(options, source: raw), source: raw.image)
        let b = try Backend.cpu.image(PlanBuilder.plan(options, source: compiled), source: compiled.image)
        #expect(a == b)
    }

    /// A chunk written out byte by byte: 2 x divs (1..3), 0 y divs, padding 1, 2, 3, 4.
    @Test func chunkLayout() throws {
        var chunk: [UInt8] = [1, 2, 0, 0] + [UInt8](repeating: 0, count: 8)
        for value in [1, 2, 3, 4] { chunk += [0, 0, 0, UInt8(value)] }  // left, right, top, bottom
        chunk += [0, 0, 0, 0]
        chunk += [0, 0, 0, 1, 0, 0, 0, 3]
        let (lattice, bounds) = try NinePatch.compiled(chunk: Data(chunk), width: 5, height: 2)
        #expect(lattice.x == [Segment(0, 1, scalable: false), Segment(1, 3, scalable: true), Segment(3, 5, scalable: false)])
        #expect(lattice.y == [Segment(0, 2, scalable: true)]) // no y divs: the whole axis scales
        #expect(bounds.padding == PixelInsets(top: 3, left: 1, bottom: 4, right: 2))
        // Truncated, odd div counts, and divs past the image are refused.
        #expect(throws: GlsliceError.self) { try NinePatch.compiled(chunk: Data(chunk.prefix(35)), width: 5, height: 2) }
        var odd = chunk
        odd[1] = 1
        #expect(throws: GlsliceError.self) { try NinePatch.compiled(chunk: Data(odd), width: 5, height: 2) }
        #expect(throws: GlsliceError.self) { try NinePatch.compiled(chunk: Data(chunk), width: 2, height: 2) }
    }
}
