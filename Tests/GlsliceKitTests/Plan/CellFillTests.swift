import Testing
@testable import GlsliceKit

/// One-colour cells (`CellFill`): the plan marks them, both backends fill them
/// without sampling, and the bytes are those sampling gives.
enum CellFillCases {
    /// A 12×10 source on a 3×3 lattice (caps 3,4,2,5 px): random caps and edges,
    /// a centre of one translucent colour, the top-left corner fully transparent
    /// and the bottom-right corner one opaque colour. Random bytes are
    /// premultiplied on the way in, as a decoded source would be.
    static func source(seed: UInt64, centre: [UInt8] = [200, 40, 90, 150]) -> (image: PremultipliedImage, lattice: Lattice) {
        var random = SeededGenerator(seed: seed)
        let (w, h) = (12, 10)
        var pixels = (0..<(w * h * 4)).map { _ in UInt8.random(in: 0...255, using: &random) }
        func paint(_ xs: Range<Int>, _ ys: Range<Int>, _ rgba: [UInt8]) {
            for y in ys { for x in xs { for c in 0..<4 { pixels[(y * w + x) * 4 + c] = rgba[c] } } }
        }
        paint(0..<4, 0..<3, [0, 0, 0, 0])
        paint(4..<7, 3..<8, centre)
        paint(7..<12, 8..<10, [10, 220, 30, 255])
        let image = StraightImage(RGBAImage(width: w, height: h, pixels: pixels)).premultiplied()
        // Caps top 3, left 4, bottom 2, right 5: the centre is x 4..<7, y 3..<8.
        let lattice = try! Lattice(width: w, height: h, insets: PixelInsets(top: 3, left: 4, bottom: 2, right: 5))
        return (image, lattice)
    }

    static let modes: [ResizeMode] = [.stretch, .tile, .repeat, .round, .space, .auto]
    static let sizes = [PixelSize(width: 41, height: 29), PixelSize(width: 7, height: 5), PixelSize(width: 120, height: 64)]

    /// Every mode, both filters, three sizes (one smaller than the caps), k 1 and 1.5.
    static func plans(_ lattice: Lattice) throws -> [Plan] {
        var plans: [Plan] = []
        for mode in modes { for filter in [Filter.linear, .nearest] { for size in sizes { for k in [1.0, 1.5] {
            plans.append(try PlanBuilder.plan(lattice: lattice, size: size, k: k, modes: PerAxis(x: mode, y: mode),
                                              filter: filter, fillCenter: true))
        } } } }
        return plans
    }

    /// The seed-7 source's plan (centre filled), and the same pixels but for a centre that
    /// differs everywhere except its first texel (4, 3), which the GPU's one-texel upload reads.
    static func poisoned() throws -> (plan: Plan, pixels: PremultipliedImage, first: [UInt8]) {
        let (image, lattice) = source(seed: 7)
        var poisoned = source(seed: 7, centre: [1, 2, 3, 4]).image
        let first = image.rgba[4, 3]
        for c in 0..<4 { poisoned.rgba.pixels[(3 * 12 + 4) * 4 + c] = first[c] }
        let plan = marked(try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: 40, height: 30), k: 1,
                                               modes: PerAxis(both: .tile), filter: .linear, fillCenter: true), image)
        return (plan, poisoned, first)
    }

    /// Whether every pixel of `plan`'s filled centre in `out` is `first`.
    static func centreIs(_ first: [UInt8], in out: PremultipliedImage, plan: Plan) -> Bool {
        guard let centre = plan.cells.first(where: { $0.fill != nil && $0.x.segment.start == 4 }) else { return false }
        for y in centre.y.destination { for x in centre.x.destination where out.rgba[x, y] != first { return false } }
        return true
    }

    /// `plan` with its fills marked from `image`.
    static func marked(_ plan: Plan, _ image: PremultipliedImage) -> Plan {
        var marked = plan
        marked.markFills(from: image)
        return marked
    }
}

@Suite struct CellFillTests {
    @Test func thePlanMarksOneColourAndTransparentCells() throws {
        let (image, lattice) = CellFillCases.source(seed: 1)
        let plan = CellFillCases.marked(try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: 30, height: 20), k: 1,
                                                              modes: PerAxis(both: .stretch), filter: .linear, fillCenter: true), image)
        func fill(_ x: Int, _ y: Int) -> CellFill? {
            plan.cells.first { $0.x.segment.start == x && $0.y.segment.start == y }?.fill
        }
        #expect(fill(0, 0) == .transparent)
        // Premultiplied by hand: (200·150 + 127) / 255 = 118, (40·150 + 127) / 255 = 24, (90·150 + 127) / 255 = 53.
        #expect(fill(4, 3) == .colour(UInt32(118) | UInt32(24) << 8 | UInt32(53) << 16 | UInt32(150) << 24))
        // Shown straight, unpremultiplied by §4's rule: (118·255 + 75) / 150 = 201, (24·255 + 75) / 150 = 41, (53·255 + 75) / 150 = 90.
        #expect(fill(4, 3)?.hex == "#C9295A96")
        #expect(fill(7, 8) == .colour(UInt32(10) | UInt32(220) << 8 | UInt32(30) << 16 | UInt32(255) << 24))
        // The random cells are not one colour.
        #expect(fill(7, 0) == nil && fill(0, 3) == nil && fill(4, 0) == nil)
    }

    @Test func cpuFillsGiveTheBytesSamplingGives() throws {
        var compared = 0
        for seed in 1...4 as ClosedRange<UInt64> {
            let (image, lattice) = CellFillCases.source(seed: seed)
            for plan in try CellFillCases.plans(lattice) {
                let sampled = try Backend.cpu.image(plan, source: image)
                let filled = try Backend.cpu.image(CellFillCases.marked(plan, image), source: image)
                #expect(sampled == filled, "\(plan.xSpans.first?.mapping as Any) \(plan.size) \(plan.filter)")
                compared += 1
            }
        }
        #expect(compared == 4 * 72)
    }

    /// A filled cell is not sampled: with the plan's fill taken from one image and
    /// the pixels from another whose centre differs everywhere but its first
    /// texel, the centre still comes out as that one colour.
    @Test func cpuFillsWithoutSampling() throws {
        let (plan, pixels, first) = try CellFillCases.poisoned()
        #expect(CellFillCases.centreIs(first, in: try Backend.cpu.image(plan, source: pixels), plan: plan))
    }
}

@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUCellFillTests {
    @Test func gpuFillsGiveTheBytesSamplingGives() throws {
        let gpu = try GPUTestSupport.backend()
        var different = 0, compared = 0
        for seed in 1...2 as ClosedRange<UInt64> {
            let (image, lattice) = CellFillCases.source(seed: seed)
            for plan in try CellFillCases.plans(lattice) {
                let sampled = try gpu.image(plan, source: image)
                let filled = try gpu.image(CellFillCases.marked(plan, image), source: image)
                if sampled != filled { different += 1 }
                compared += 1
            }
        }
        #expect(compared == 2 * 72 && different == 0)
    }

    @Test func gpuFillsWithoutSampling() throws {
        let gpu = try GPUTestSupport.backend()
        let (plan, pixels, first) = try CellFillCases.poisoned()
        #expect(CellFillCases.centreIs(first, in: try gpu.image(plan, source: pixels), plan: plan))
    }
}
