import Testing
@testable import GlsliceKit

/// `--border-width` (CSS `border-image-width`) and `--outset` (`border-image-outset`),
/// pixels worked out by hand from ten grey levels 10, 20, … 100.
@Suite struct BorderWidthTests {
    let source = greyRow([10, 20, 30, 40, 50, 60, 70, 80, 90, 100])

    func row(_ request: RenderRequest) throws -> [UInt8] {
        let plan = try PlanBuilder.plan(request, sourceSize: PixelSize(width: 10, height: 1), file: "row.png")
        let image = try Backend.cpu.image(plan, source: source)
        return (0..<plan.size.width).map { image.rgba[$0, 0][0] }
    }

    @Test func capsAreDrawnAtTheirWidthNotTheirSlice() throws {
        // Slices left 2, right 3; widths 4 and 6: each cap twice its size (texels 0,0,1,1 and 7,7,8,8,9,9).
        // No top or bottom cap, so tiles along x keep k = 1: texels 2…6 from the centre's start.
        let request = RenderRequest(size: .pixels(PixelSize(width: 17, height: 1)),
                                    insets: Insets(top: 0, left: 2, bottom: 0, right: 3),
                                    modes: PerAxis(both: .tile), filter: .nearest,
                                    borderWidth: Insets(top: 0, left: 4, bottom: 0, right: 6))
        #expect(try row(request) == [10, 10, 20, 20, 30, 40, 50, 60, 70, 30, 40, 80, 80, 90, 90, 100, 100])
    }

    @Test func narrowerWidthsShrinkTheCaps() throws {
        // Widths 1 and 1: each cap squeezed into one pixel, u = s0 + 0.5 × n / 1 → texels 1 and 8.
        let request = RenderRequest(size: .pixels(PixelSize(width: 7, height: 1)),
                                    insets: Insets(top: 0, left: 2, bottom: 0, right: 3),
                                    modes: PerAxis(both: .stretch), filter: .nearest,
                                    borderWidth: Insets(top: 0, left: 1, bottom: 0, right: 1))
        // The centre, 5 texels over 5 px, copies 30…70.
        #expect(try row(request) == [20, 30, 40, 50, 60, 70, 90])
    }

    /// CSS scales an edge's tiles by the cross cap's factor: tiles along x take
    /// the top cap's height over its slice (6 / 3 = 2), along y the left's (2 / 2 = 1).
    @Test func tilesTakeTheCrossCapsFactor() throws {
        let lattice = try Lattice(width: 10, height: 8, insets: PixelInsets(top: 3, left: 2, bottom: 1, right: 3))
        let caps = try CapWidths.make(Insets(top: 6, left: 2, bottom: 5, right: 4), outputScale: 1, lattice: lattice, k: 1)
        #expect(caps.x == CapWidths(lead: 2, trail: 4, tileScale: 2))
        #expect(caps.y == CapWidths(lead: 6, trail: 5, tileScale: 1))
        // A zero top cap hands the factor to the bottom (5 / 1); none at all leaves k.
        let bottomOnly = try CapWidths.make(Insets(top: 0, left: 0, bottom: 5, right: 0), outputScale: 2, lattice: lattice, k: 1.5)
        #expect(bottomOnly.x.tileScale == 10 && bottomOnly.y.tileScale == 1.5)
    }

    @Test func outsetGrowsTheOutput() throws {
        let request = RenderRequest(size: .points(width: 10, height: 1), outputScale: 2,
                                    insets: Insets(top: 0, left: 1, bottom: 0, right: 1),
                                    outset: Insets(top: 0.5, left: 1, bottom: 0, right: 2))
        let plan = try PlanBuilder.plan(request, sourceSize: PixelSize(width: 10, height: 1), file: "row.png")
        // (10 + 1 + 2) pt × 2 = 26 px wide, (1 + 0.5) pt × 2 = 3 px tall.
        #expect(plan.size == PixelSize(width: 26, height: 3))
    }

    @Test func refusals() throws {
        let size = OutputSize.pixels(PixelSize(width: 20, height: 4))
        // A width for a cap whose slice is 0.
        #expect(throws: GlsliceError.self) {
            try PlanBuilder.plan(RenderRequest(size: size, insets: Insets(top: 0, left: 2, bottom: 0, right: 3),
                                               borderWidth: Insets(top: 1, left: 4, bottom: 0, right: 6)),
                                 sourceSize: PixelSize(width: 10, height: 4), file: "a.png")
        }
        // Half a pixel of outset.
        #expect(throws: GlsliceError.self) {
            try PlanBuilder.plan(RenderRequest(size: size, outset: Insets(top: 0.5, left: 0, bottom: 0, right: 0)),
                                 sourceSize: PixelSize(width: 10, height: 4), file: "a.png")
        }
        #expect(throws: GlsliceError.self) { try RenderRequest(texts: [.pixels: "5x5", .borderWidth: "1,2,-3,4"], style: .flag) }
        let parsed = try RenderRequest(texts: [.pixels: "5x5", .borderWidth: "4", .outset: "1,2,3,4"], style: .manifestKey)
        #expect(parsed.borderWidth == Insets(top: 4, left: 4, bottom: 4, right: 4))
        #expect(parsed.canonicalJSON.contains(#""border-width":"4,4,4,4""#) && parsed.canonicalJSON.contains(#""outset":"1,2,3,4""#))
    }
}
