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
}
