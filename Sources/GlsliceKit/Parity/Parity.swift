/// docs/RENDERING.md §5: the CPU and GPU backends agree on seeded random jobs.
///
/// Every pixel must be identical, under both filters: the backends sample
/// from the same taps (`AxisTaps`) with the same integer arithmetic.
package enum Parity {
    /// One random job: a random source with random alpha, a random lattice,
    /// modes, filter, scale ratio, centre fill and strip/chunk sizes.
    package struct Job: Sendable, CustomStringConvertible {
        package var index: Int
        package var source: PremultipliedImage
        package var plan: Plan
        /// Rows per strip, so strip rendering is exercised on small outputs.
        var stripRows: Int?
        /// Widest GPU framebuffer chunk, so column chunking is exercised too.
        var chunkWidth: Int?

        package var description: String {
            let segments = { (spans: [AxisSpan]) in
                spans.map { "\($0.segment.start)-\($0.segment.end)\($0.segment.scalable ? "s" : "f")" }.joined(separator: ",")
            }
            return "job \(index): source \(source.width)x\(source.height), x [\(segments(plan.xSpans))], "
                + "y [\(segments(plan.ySpans))], output \(plan.size), k \(plan.k), \(plan.filter), "
                + "modes \(modeName(plan.xSpans))/\(modeName(plan.ySpans)), cells \(plan.cells.count)"
                + (stripRows.map { ", strips of \($0) rows" } ?? "") + (chunkWidth.map { ", chunks of \($0) px" } ?? "")
        }

        private func modeName(_ spans: [AxisSpan]) -> String {
            guard let span = spans.first(where: { $0.segment.scalable }) else { return "-" }
            switch span.mapping {
            case .clamped: return "stretch"
            case .wrapped: return "wrap"
            case .spaced: return "space"
            }
        }
    }

    static let ratios: [Double] = [0.5, 1, 1.5, 2, 3]

    /// Job `index` of the sequence for `seed`.
    package static func job(index: Int, seed: UInt64) -> Job {
        var rng = SeededGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
        while true {
            if let job = try? makeJob(index: index, rng: &rng) { return job }
        }
    }

    private static func makeJob(index: Int, rng: inout SeededGenerator) throws -> Job {
        let width = Int.random(in: 1...64, using: &rng)
        let height = Int.random(in: 1...64, using: &rng)
        let source = randomImage(width: width, height: height, rng: &rng)
        let lattice = try Lattice(width: width, height: height,
                                  x: randomSegments(width, rng: &rng), y: randomSegments(height, rng: &rng))
        let k = ratios.randomElement(using: &rng) ?? 1
        func outputLength(_ segments: [Segment]) -> Int {
            let caps = segments.filter { !$0.scalable }.reduce(0) { $0 + $1.length }
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: return Int.random(in: 1...max(1, Int(Double(caps) * k)), using: &rng) // caps shrink
            case 1: return max(1, Int(Double(width == 0 ? 1 : segments.last?.end ?? 1) * k)) // often exact copies
            default: return Int.random(in: 1...160, using: &rng)
            }
        }
        let size = PixelSize(width: outputLength(lattice.x), height: outputLength(lattice.y))
        let modes = PerAxis(x: ResizeMode.allCases.randomElement(using: &rng) ?? .auto,
                            y: ResizeMode.allCases.randomElement(using: &rng) ?? .auto)
        let filter: Filter = Bool.random(using: &rng) ? .linear : .nearest
        let fill = Int.random(in: 0..<5, using: &rng) != 0
        // From the index, not the generator, so the rest of each job stays as it was:
        // a third of the jobs clip small axes, half mark one-colour cells (1-px cells always are).
        var plan = try PlanBuilder.plan(lattice: lattice, size: size, k: k, modes: modes, filter: filter, fillCenter: fill,
                                        small: index % 3 == 0 ? .clip : .proportional)
        if index % 2 == 0 { plan.markFills(from: source) }
        let strips = Int.random(in: 0..<10, using: &rng) < 3 ? Int.random(in: 1...16, using: &rng) : nil
        let chunks = Int.random(in: 0..<10, using: &rng) < 2 ? Int.random(in: 1...40, using: &rng) : nil
        return Job(index: index, source: source, plan: plan, stripRows: strips, chunkWidth: chunks)
    }

    /// Opaque noise, the same on every machine: no two neighbours alike in practice, nothing one
    /// colour (the worst case for texture caches, memory budgets and encoders; tests use it).
    package static func noise(width: Int, height: Int, seed: UInt64 = 12345) -> PremultipliedImage {
        var rng = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let bits = rng.next()
            for c in 0..<3 { pixels[i + c] = UInt8(truncatingIfNeeded: bits >> (8 * c)) }
        }
        return PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels))
    }

    /// Premultiplied pixels from random straight colours: opaque, random alpha, or on/off alpha.
    static func randomImage(width: Int, height: Int, rng: inout SeededGenerator) -> PremultipliedImage {
        let style = Int.random(in: 0..<3, using: &rng)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            for c in 0..<3 { pixels[i + c] = UInt8.random(in: 0...255, using: &rng) }
            switch style {
            case 0: pixels[i + 3] = 255
            case 1: pixels[i + 3] = UInt8.random(in: 0...255, using: &rng)
            default: pixels[i + 3] = Bool.random(using: &rng) ? 255 : 0
            }
        }
        return StraightImage(RGBAImage(width: width, height: height, pixels: pixels)).premultiplied()
    }

    /// Nine-slice segments (zero caps and 1-px centres included) or a multi-segment lattice,
    /// always with at least one scalable segment.
    static func randomSegments(_ length: Int, rng: inout SeededGenerator) -> [Segment] {
        if length >= 4 && Int.random(in: 0..<10, using: &rng) < 3 {
            // Multi-segment: cut points, alternating fixed and scalable.
            let cuts = Set((0..<Int.random(in: 2...min(6, length - 1), using: &rng)).map { _ in Int.random(in: 1..<length, using: &rng) })
            let points = [0] + cuts.sorted() + [length]
            var scalable = Bool.random(using: &rng)
            var segments: [Segment] = []
            for (a, b) in zip(points, points.dropFirst()) {
                segments.append(Segment(a, b, scalable: scalable))
                scalable.toggle()
            }
            if !segments.contains(where: \.scalable) { segments[0].scalable = true }
            return segments
        }
        let centre: Int
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: centre = 1
        case 1: centre = length
        default: centre = Int.random(in: 1...length, using: &rng)
        }
        let caps = length - centre
        let left = Int.random(in: 0...caps, using: &rng)
        return [Segment(0, left, scalable: false), Segment(left, left + centre, scalable: true),
                Segment(left + centre, length, scalable: false)].filter { $0.length > 0 }
    }

    /// The outcome of comparing the backends.
    package struct Report: Sendable {
        var cases = 0
        var pixels = 0
        /// Largest per-channel difference over every job.
        var maxDifference = 0
        /// Mean per-channel difference over every channel of every job.
        var meanDifference: Double { channels == 0 ? 0 : Double(differenceSum) / Double(channels) }
        var worst: String?
        var worstDifference = 0
        /// Jobs that broke docs/RENDERING.md §5, one line each.
        var violations: [String] = []
        package var passed: Bool { violations.isEmpty }
        /// Jobs whose `fast` PNGs were compared byte for byte, and how many of the candidate's the GPU's compute encoder wrote.
        var encoded = 0
        var encodedOnGPU = 0
        /// The first job the GPU's encoder gave to the CPU, and why (nil: none).
        var firstDeclined: String?
        var differenceSum = 0
        var channels = 0

        /// What `glslice parity` prints after its first line: the figures, the first 10 failures, the verdict.
        package var lines: [String] {
            var lines = [String(format: "max difference %d, mean difference %.5f per channel over %d pixels", maxDifference, meanDifference, pixels)]
            if let worst { lines.append("worst: \(worst) (max \(worstDifference))") }
            lines.append("PNGs (glslice deflate, the default) compared byte for byte: \(encoded), \(encodedOnGPU) of them encoded on the GPU")
            if let firstDeclined { lines.append("the GPU's encoder gave some to the CPU, first \(firstDeclined)") }
            lines += violations.prefix(10).map { "FAIL \($0)" }
            lines.append(passed ? "parity: pass (every pixel identical, every PNG the same bytes)"
                : "parity: FAIL, \(violations.count) of \(cases) jobs outside docs/RENDERING.md §5")
            return lines
        }

        /// `glslice parity --json`'s object, for a run of `seed` against `candidate`.
        package func json(seed: UInt64, candidate: String) -> some Encodable & Sendable {
            JSON(cases: cases, seed: seed, candidate: candidate, pixels: pixels, maxDifference: maxDifference, meanDifference: meanDifference,
                 worst: worst, violations: violations, passed: passed, encoded: encoded, encodedOnGPU: encodedOnGPU)
        }

        struct JSON: Encodable, Sendable {
            var cases: Int
            var seed: UInt64
            var candidate: String
            var pixels: Int
            var maxDifference: Int
            var meanDifference: Double
            var worst: String?
            var violations: [String]
            var passed: Bool
            var encoded: Int
            var encodedOnGPU: Int

            enum CodingKeys: String, CodingKey {
                case cases, seed, candidate, pixels, worst, violations, passed, encoded
                case encodedOnGPU = "encoded-on-gpu"
                case maxDifference = "max-difference"
                case meanDifference = "mean-difference"
            }
        }
    }

    /// Compares the reference image with the candidate under docs/RENDERING.md §5's rule: equal bytes.
    package static func compare(_ job: Job, reference: PremultipliedImage, candidate: PremultipliedImage,
                               into report: inout Report) {
        report.cases += 1
        report.pixels += job.plan.size.pixelCount
        let width = job.plan.size.width
        var jobMax = 0
        var firstBad: String?
        reference.rgba.pixels.withUnsafeBufferPointer { a in
            candidate.rgba.pixels.withUnsafeBufferPointer { b in
                for i in 0..<a.count {
                    let d = abs(Int(a[i]) - Int(b[i]))
                    report.differenceSum += d
                    jobMax = max(jobMax, d)
                    if firstBad == nil, d > 0 {
                        let p = i / 4
                        firstBad = "pixel \(p % width),\(p / width) channel \(i % 4): cpu \(a[i]) gpu \(b[i])"
                    }
                }
            }
        }
        report.channels += reference.rgba.pixels.count
        report.maxDifference = max(report.maxDifference, jobMax)
        if jobMax > report.worstDifference || report.worst == nil {
            report.worstDifference = jobMax
            report.worst = job.description
        }
        if let firstBad { report.violations.append("\(job.description): \(firstBad)") }
    }

    /// Renders `cases` jobs on both backends and compares them: their pixels, and
    /// their `fast` PNGs (a GPU candidate encodes on its compute encoder wherever that takes the job).
    package static func run(cases: Int, seed: UInt64, reference: Backend = .cpu, candidate: Backend,
                           progress: (Int) -> Void = { _ in }) throws -> Report {
        var report = Report()
        for index in 0..<cases {
            let job = job(index: index, seed: seed)
            let strips = Strips(maxRows: job.stripRows)
            candidate.gpu?.targetLimitOverride = job.chunkWidth.map { ($0, Int.max) }
            defer { candidate.gpu?.targetLimitOverride = nil }
            let a = try reference.image(job.plan, source: job.source, strips: strips)
            let b = try candidate.image(job.plan, source: job.source, strips: strips)
            compare(job, reference: a, candidate: b, into: &report)
            try compareEncoded(job, seed: seed, reference: a, candidate: b, on: candidate, into: &report)
            progress(index + 1)
        }
        return report
    }

    /// The job as the engine takes it: a prepared job over its random source, keyed by seed and
    /// index (one source, one key, so GPU textures are shared only by the same pixels).
    static func prepared(_ job: Job, seed: UInt64) -> PreparedJob {
        let key = SourceKey(contentHash: "parity:\(seed):\(job.index)", recipe: .plain)
        return PreparedJob(plan: job.plan, source: ResolvedSource(source: SourceImage(image: job.source, file: "parity job \(job.index)"), key: key))
    }

    /// Issue 43's rule, through the engine's encode step as batch, serve and render take it: the
    /// job's PNG (glslice's deflate, the default) encoded from the reference's pixels, and by the
    /// candidate (on its GPU's compute encoder where that takes the job, else from its own pixels,
    /// as batch encodes an atlas's strip), are the same bytes.
    static func compareEncoded(_ job: Job, seed: UInt64, reference: PremultipliedImage, candidate drawn: PremultipliedImage,
                               on candidate: Backend, into report: inout Report) throws {
        let prepared = Self.prepared(job, seed: seed)
        func file(_ drawing: Drawing) throws -> [UInt8] { try Engine.encode(prepared, drawing: drawing, to: .memory).data ?? [] }
        let expected = try file(.strip(of: reference))
        var written: [UInt8]?
        if let session = candidate.gpu, session.encodes(.png, prepared.request.compression, size: prepared.size) {
            // The one "GPU, else CPU" policy: what the GPU cannot encode (llvmpipe's loop limit, a GL
            // error) has its pixels encoded on the CPU, as batch does; the first reason is reported.
            switch session.encodeElseCPU([prepared.encodingOnGPU(session, strips: Strips(maxRows: job.stripRows))], times: nil)[0] {
            case .success(let data):
                written = try file(.encoded(data))
                report.encodedOnGPU += 1
            case .failure(let error):
                if report.firstDeclined == nil { report.firstDeclined = "\(job.description): \((error as? GlsliceError)?.message ?? "\(error)")" }
            }
        }
        let candidateFile = try written ?? file(.strip(of: drawn))
        report.encoded += 1
        if candidateFile != expected {
            let at = zip(candidateFile, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(candidateFile.count, expected.count)
            report.violations.append("\(job.description): its PNG differs at byte \(at) (\(candidateFile.count) bytes against \(expected.count))")
        }
    }
}
