import Testing
@testable import GlsliceKit

/// docs/RENDERING.md §5 over seeded random jobs: every pixel identical, both filters,
/// strips and column chunks included; and issue 43's rule: every job's `fast` PNG the
/// same bytes, at least 2,000 of them written by the GPU's compute encoder.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUParityTests {
    static let cases = 2500
    static let seed: UInt64 = 2026

    @Test func randomJobsAgree() throws {
        let gpu = try GPUTestSupport.backend(gpuEncoding: true) // as `glslice parity` opens it
        let report = try Parity.run(cases: Self.cases, seed: Self.seed, candidate: gpu)
        #expect(report.cases == Self.cases)
        #expect(report.violations.isEmpty, "\(report.violations.prefix(5).joined(separator: "\n"))")
        #expect(report.maxDifference == 0)
        #expect(report.encoded == Self.cases && report.encodedOnGPU >= 2000, "\(report.encodedOnGPU) encoded on the GPU")
    }

    /// The job set really covers what docs/RENDERING.md §5 asks for; if the generator drifts, this fails.
    @Test func jobSetCoversTheContract() {
        var mappings = Set<String>(), ratios = Set<Double>(), filters = Set<String>()
        var centreOff = 0, strips = 0, chunks = 0, shrinking = 0, multiSegment = 0, zeroCaps = 0, onePixelCentres = 0
        var translucent = 0, tiny = 0, large = 0, filled = 0, translucentFilled = 0, clipped = 0
        for index in 0..<Self.cases {
            let job = Parity.job(index: index, seed: Self.seed)
            let plan = job.plan
            for (axis, spans) in [("x", plan.xSpans), ("y", plan.ySpans)] {
                for span in spans where span.segment.scalable {
                    switch span.mapping {
                    case .clamped: mappings.insert("\(axis) clamped")
                    case .wrapped: mappings.insert("\(axis) wrapped")
                    case .spaced: mappings.insert("\(axis) spaced")
                    }
                    if span.segment.length == 1 { onePixelCentres += 1 }
                }
                if spans.count > 3 { multiSegment += 1 }
                if spans.count == 1 || spans.first?.segment.scalable == true { zeroCaps += 1 }
                let caps = spans.filter { !$0.segment.scalable }.reduce(0.0) { $0 + Double($1.segment.length) * plan.k }
                if caps > Double(axis == "x" ? plan.size.width : plan.size.height) {
                    shrinking += 1
                    if index % 3 == 0 { clipped += 1 } // Parity.job's rule for --small clip
                }
            }
            ratios.insert(plan.k)
            filters.insert(plan.filter.rawValue)
            let centres = plan.xSpans.filter(\.segment.scalable).count * plan.ySpans.filter(\.segment.scalable).count
            let drawable = plan.xSpans.filter({ !$0.destination.isEmpty }).count * plan.ySpans.filter({ !$0.destination.isEmpty }).count
            if plan.cells.count < drawable, centres > 0 { centreOff += 1 }
            if plan.cells.contains(where: { $0.fill != nil }) { filled += 1 }
            if plan.cells.contains(where: { if case .colour(let c) = $0.fill { c >> 24 != 0xff } else { false } }) { translucentFilled += 1 }
            if job.stripRows != nil { strips += 1 }
            if job.chunkWidth != nil { chunks += 1 }
            if !job.source.rgba.isOpaque { translucent += 1 }
            if job.source.width == 1 || job.source.height == 1 { tiny += 1 }
            if job.source.width >= 60 || job.source.height >= 60 { large += 1 }
        }
        #expect(mappings == ["x clamped", "x wrapped", "x spaced", "y clamped", "y wrapped", "y spaced"])
        #expect(ratios == Set(Parity.ratios))
        #expect(filters == ["linear", "nearest"])
        for (name, count) in [("centre off", centreOff), ("strips", strips), ("chunks", chunks),
                              ("shrinking caps", shrinking), ("multi-segment", multiSegment), ("zero caps", zeroCaps),
                              ("1-px centres", onePixelCentres), ("translucent", translucent),
                              ("1-px sources", tiny), ("large sources", large),
                              ("one-colour cells", filled), ("translucent one-colour cells", translucentFilled),
                              ("clipped small axes", clipped)] {
            #expect(count >= 20, "\(name): only \(count) jobs")
        }
    }

    @Test func nearestMatchesHandComputedPixels() throws {
        // The same hand-worked numbers as CPUDrawerTests, now on the GPU: nearest must be exact.
        let gpu = try GPUTestSupport.backend()
        let source: [UInt8] = [10, 20, 30, 40, 50]
        let segments = [Segment(0, 1, scalable: false), Segment(1, 4, scalable: true), Segment(4, 5, scalable: false)]
        let cases: [(ResizeMode, Int, Double, [UInt8?])] = [
            (.stretch, 16, 2, [10, 10, 20, 20, 20, 20, 30, 30, 30, 30, 40, 40, 40, 40, 50, 50]),
            (.tile, 14, 2, [10, 10, 20, 20, 30, 30, 40, 40, 20, 20, 30, 30, 50, 50]),
            (.round, 9, 1, [10, 20, 30, 40, 20, 20, 30, 40, 50]),
            (.repeat, 8, 1, [10, 30, 40, 20, 30, 40, 20, 50]),
            (.space, 10, 1, [10, nil, 20, 30, 40, 20, 30, 40, nil, 50]),
        ]
        for (mode, length, k, expected) in cases {
            let lattice = try Lattice(width: 5, height: 1, x: segments, y: [Segment(0, 1, scalable: true)])
            let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: length, height: 2), k: k,
                                      modes: PerAxis(x: mode, y: .stretch), filter: .nearest, fillCenter: true)
            let image = try gpu.image(plan, source: greyRow(source))
            for y in 0..<2 {
                let row = (0..<length).map { image.rgba[$0, y] }
                #expect(row == expected.map { $0.map { [$0, $0, $0, 255] } ?? [0, 0, 0, 0] }, "\(mode) row \(y)")
            }
        }
    }

    @Test func stripsAndChunksGiveTheSamePixelsAsOnePass() throws {
        let gpu = try GPUTestSupport.backend()
        let source = try PNGDecoder.decode(path: fixtures.appendingPathComponent("shadow.png").path, maxPixels: 1 << 20)
            .premultiplied()
        let lattice = try Lattice(width: source.width, height: source.height,
                                  insets: PixelInsets(top: 16, left: 16, bottom: 16, right: 16))
        let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: 301, height: 203), k: 1.5,
                                  modes: PerAxis(x: .round, y: .tile), filter: .linear, fillCenter: true)
        let whole = try gpu.image(plan, source: source)
        gpu.gpu?.targetLimitOverride = (37, 1 << 20)
        let cut = try gpu.image(plan, source: source, strips: Strips(maxRows: 7))
        gpu.gpu?.targetLimitOverride = nil
        #expect(whole == cut)
        let cpu = try Backend.cpu.image(plan, source: source, strips: Strips(maxRows: 5))
        var report = Parity.Report()
        Parity.compare(Parity.Job(index: 0, source: source, plan: plan), reference: cpu, candidate: cut, into: &report)
        #expect(report.passed, "\(report.violations)")
    }

    @Test func contextReportsWhatItIs() throws {
        let gpu = try GPUTestSupport.backend()
        let context = try #require(gpu.gpu?.context)
        #expect(context.version.hasPrefix("OpenGL ES 3"))
        #expect(!context.renderer.isEmpty)
        #expect(context.limits.maxRenderbufferSize >= 2048)
    }
}
