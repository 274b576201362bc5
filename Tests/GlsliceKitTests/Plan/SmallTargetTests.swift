import Testing
@testable import GlsliceKit

/// `--small clip`: an axis shorter than its caps keeps the caps at their size
/// and cuts them, the leading caps winning (Godot's NinePatchRect); pixels
/// worked out by hand from ten grey levels 10, 20, … 100 with caps of 4 px.
@Suite struct SmallTargetTests {
    let source = greyRow([10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
    let segments = [Segment(0, 4, scalable: false), Segment(4, 6, scalable: true), Segment(6, 10, scalable: false)]

    func row(_ length: Int, k: Double, small: SmallTarget, backend: Backend = .cpu) throws -> [UInt8] {
        let lattice = try Lattice(width: 10, height: 1, x: segments, y: [Segment(0, 1, scalable: true)])
        let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: length, height: 1), k: k,
                                        modes: PerAxis(both: .stretch), filter: .nearest, fillCenter: true, small: small)
        let image = try backend.image(plan, source: source)
        return (0..<length).map { image.rgba[$0, 0][0] }
    }

    @Test func clipKeepsTheCapsAndCutsThem() throws {
        // 6 px for 8 px of caps: the left cap whole (10…40), then the right cap's last 2 px (90, 100).
        #expect(try row(6, k: 1, small: .clip) == [10, 20, 30, 40, 90, 100])
        // 3 px: shorter than the left cap alone, which wins: its first 3 px.
        #expect(try row(3, k: 1, small: .clip) == [10, 20, 30])
        // 7 px: the left cap, then the right cap's last 3 px.
        #expect(try row(7, k: 1, small: .clip) == [10, 20, 30, 40, 80, 90, 100])
        // At k = 2 the caps are 8 px each; 12 px: the left cap's 8 (each texel twice), then the right's last 4.
        #expect(try row(12, k: 2, small: .clip) == [10, 10, 20, 20, 30, 30, 40, 40, 90, 90, 100, 100])
    }

    @Test func proportionalShrinksEveryCapAlike() throws {
        // §2 step 3: each 4 px cap gets 4 × 6 / 8 = 3 px, reading texel floor(s0 + (x + 0.5 − P) × 4 / 3):
        // left 0.67, 2, 3.33 → 0, 2, 3; right (s0 = 6, P = 3) 6.67, 8, 9.33 → 6, 8, 9.
        #expect(try row(6, k: 1, small: .proportional) == [10, 30, 40, 70, 90, 100])
    }

    @Test func clipChangesNothingWhenTheCapsFit() throws {
        #expect(try row(9, k: 1, small: .clip) == row(9, k: 1, small: .proportional))
        #expect(try row(8, k: 1, small: .clip) == [10, 20, 30, 40, 70, 80, 90, 100])
    }

    @Test(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
    func theGPUCutsTheSame() throws {
        let gpu = try GPUTestSupport.backend()
        #expect(try row(6, k: 1, small: .clip, backend: gpu) == [10, 20, 30, 40, 90, 100])
        #expect(try row(12, k: 2, small: .clip, backend: gpu) == [10, 10, 20, 20, 30, 30, 40, 40, 90, 90, 100, 100])
    }

    @Test func theOptionParsesAndStaysOutOfDefaultDigests() throws {
        let request = try RenderRequest(texts: [.pixels: "5x5", .small: "CLIP"], style: .manifestKey)
        #expect(request.small == .clip)
        #expect(request.canonicalJSON.contains(#""small":"clip""#))
        #expect(!RenderRequest(size: .pixels(PixelSize(width: 5, height: 5))).canonicalJSON.contains("small"))
        #expect(throws: GlsliceError.self) { try RenderRequest(texts: [.pixels: "5x5", .small: "squash"], style: .flag) }
    }
}
