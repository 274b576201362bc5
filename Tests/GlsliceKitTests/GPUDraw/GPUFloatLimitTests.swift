import Foundation
import Testing
@testable import GlsliceKit

/// Issue 31's finding 11: where the float shader lost exactness. With one
/// sampling (the plan's taps, integer blends) both now match the exact
/// mapping, computed here in integers from docs/RENDERING.md §2–§3.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUFloatLimitTests {
    /// `round` + `nearest` on axes of 6,000 px and more: the float product
    /// (x + 0.5) × n·c passed 2²⁴ and picked texel 63 for 51.
    @Test(arguments: [6000, 6001, 8192, 16000])
    func wideRoundNearestPicksTheExactTexel(length: Int) throws {
        let gpu = try GPUTestSupport.backend()
        let values: [UInt8] = [10, 40, 70, 100, 130, 160, 190]
        let n = values.count
        let lattice = try Lattice(width: n, height: 1, x: [Segment(0, n, scalable: true)], y: [Segment(0, 1, scalable: true)])
        let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: length, height: 1), k: 1,
                                        modes: PerAxis(x: .round, y: .stretch), filter: .nearest, fillCenter: true)
        // round: c = round(L / n) tiles of L / c px; u = (x + 0.5) · n·c / L, texel floor(u) mod n.
        let count = (2 * length + n) / (2 * n)
        let expected = (0..<length).map { x in values[((2 * x + 1) * n * count / (2 * length)) % n] }
        for backend in [Backend.cpu, gpu] {
            let image = try backend.image(plan, source: greyRow(values))
            let row = (0..<length).map { image.rgba[$0, 0][0] }
            let wrong = zip(row, expected).enumerated().filter { $0.element.0 != $0.element.1 }
            #expect(wrong.isEmpty, "\(backend.kind) at \(length) px: \(wrong.count) pixels, first at x \(wrong.first?.offset ?? -1)")
        }
    }

    /// `--border-width 1e-100,8,8,8 --mode tile`: a factor that underflows in
    /// float left the GPU's bottom edge transparent. An opaque source tiled
    /// covers every output pixel, so every pixel is opaque, on both backends.
    @Test func aVanishingBorderWidthLeavesNoHole() throws {
        let gpu = try GPUTestSupport.backend()
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/texture.png").path
        let source = try ResolvedSource.load(input: path, outputScale: nil, maxPixels: 1 << 20).source
        #expect(stride(from: 3, to: source.image.rgba.pixels.count, by: 4).allSatisfy { source.image.rgba.pixels[$0] == 255 })
        var request = RenderRequest(size: .pixels(PixelSize(width: 120, height: 80)), insets: Insets(top: 6, left: 6, bottom: 6, right: 6),
                                    modes: PerAxis(both: .tile))
        request.borderWidth = Insets(top: 1e-100, left: 8, bottom: 8, right: 8)
        let plan = try PlanBuilder.plan(request, source: source)
        let cpu = try Backend.cpu.image(plan, source: source.image)
        let drawn = try gpu.image(plan, source: source.image)
        #expect(cpu == drawn)
        for (name, image) in [("cpu", cpu), ("gpu", drawn)] {
            let holes = stride(from: 3, to: image.rgba.pixels.count, by: 4).filter { image.rgba.pixels[$0] != 255 }.count
            #expect(holes == 0, "\(name): \(holes) transparent pixels")
        }
    }
}
