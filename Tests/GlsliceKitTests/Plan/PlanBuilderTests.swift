import Testing
@testable import GlsliceKit

/// `PlanBuilder`: scales, limits and the source's hints settle into one plan.
@Suite struct PlanBuilderTests {
    @Test func outputScaleDefaultsToTheSourceScale() throws {
        let options = RenderRequest(size: .points(width: 100, height: 30), insets: Insets(top: 2, left: 3, bottom: 2, right: 3))
        let plan = try PlanBuilder.plan(options, sourceSize: PixelSize(width: 14, height: 10), file: "b@2x.png")
        #expect(plan.size == PixelSize(width: 200, height: 60))
        #expect(plan.k == 1)
        #expect(plan.xSpans.first?.destination == 0..<6)
    }

    @Test func contradictorySourceScaleIsRefused() {
        let options = RenderRequest(size: .pixels(PixelSize(width: 4, height: 4)), sourceScale: 3)
        #expect(throws: GlsliceError.self) { try PlanBuilder.plan(options, sourceSize: PixelSize(width: 4, height: 4), file: "b@2x.png") }
    }

    @Test func absurdScaleRatiosAreRefused() {
        for scale in [0.01, 200.0] {
            let options = RenderRequest(size: .pixels(PixelSize(width: 10, height: 10)), outputScale: scale)
            #expect(throws: GlsliceError.self) { try PlanBuilder.plan(options, sourceSize: PixelSize(width: 4, height: 4), file: "a.png") }
        }
        let fine = RenderRequest(size: .pixels(PixelSize(width: 10, height: 10)), outputScale: 3)
        #expect((try? PlanBuilder.plan(fine, sourceSize: PixelSize(width: 4, height: 4), file: "a@3x.png"))?.k == 1)
    }

    @Test func outputLimit() {
        let options = RenderRequest(size: .pixels(PixelSize(width: 1000, height: 1000)))
        let limits = Limits(maxSourcePixels: 100, maxOutputPixels: 999_999)
        #expect(throws: GlsliceError.self) {
            try PlanBuilder.plan(options, sourceSize: PixelSize(width: 4, height: 4), file: "a.png", limits: limits)
        }
        #expect((try? PlanBuilder.plan(options, sourceSize: PixelSize(width: 4, height: 4), file: "a.png"))?.size.width == 1000)
    }

    /// `--lattice` runs are points: at @2x, `x=1-2,4-5` is pixels 2-4 and 8-10 of a
    /// 12 px source; 20 px out at k = 1 leaves 20 − 8 = 12 px for the two 2 px
    /// runs, 6 each. No y runs: the whole y axis scales, as Android draws it.
    @Test func latticeRunsArePointsAndShareTheRestByLength() throws {
        let request = RenderRequest(size: .points(width: 10, height: 5), lattice: try LatticeRuns(parsing: "x=1-2,4-5"))
        let plan = try PlanBuilder.plan(request, sourceSize: PixelSize(width: 12, height: 4), file: "a@2x.png")
        let x = plan.xSpans.map { [$0.segment.start, $0.segment.end, $0.segment.scalable ? 1 : 0, $0.destination.lowerBound, $0.destination.upperBound] }
        let expected = [[0, 2, 0, 0, 2], [2, 4, 1, 2, 8], [4, 8, 0, 8, 12], [8, 10, 1, 12, 18], [10, 12, 0, 18, 20]]
        let same = x == expected
        #expect(same, "\(x)")
        #expect(plan.ySpans.count == 1 && plan.ySpans[0].segment.scalable && plan.ySpans[0].destination == 0..<10)
    }

    @Test func latticeTextRoundTrips() throws {
        let runs = try LatticeRuns(parsing: " y = 8-9 ; x=10-12, 30.5-32 ")
        #expect(runs.formatted == "x=10-12,30.5-32;y=8-9")
        #expect(try LatticeRuns(parsing: runs.formatted) == runs)
        #expect(try LatticeRuns(parsing: "x=1-2").y.isEmpty)
    }
}
