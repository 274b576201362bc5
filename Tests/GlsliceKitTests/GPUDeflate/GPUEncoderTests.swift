import Foundation
import Testing
@testable import GlsliceKit

/// The GPU's PNG (issue 43): from the drawn pixels, the file the CPU's
/// `--compression fast` encoder writes, byte for byte: palette (1-8 bits), RGB and RGBA.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUEncoderTests {
    /// The CPU's file and the GPU's for the same premultiplied pixels.
    static func files(_ plan: Plan, source: PremultipliedImage, drawn: RGBAImage, encoder: GPUEncoder,
                      atlas: (x: Int, y: Int, width: Int)? = nil) throws -> (cpu: [UInt8], gpu: [UInt8]) {
        let map = RepeatMap(plan: plan, source: source)
        let cpuFile = try PNGEncoder.memoryFile(PremultipliedImage(drawn), compression: .fast, repeats: map)
        // The output placed in a wider buffer, as in an atlas: garbage around it.
        let place = atlas ?? (0, 0, drawn.width)
        var buffer = [UInt8](repeating: 0x5A, count: (place.y + drawn.height + 1) * place.width * 4)
        for y in 0..<drawn.height {
            let from = y * drawn.width * 4, to = ((place.y + y) * place.width + place.x) * 4
            buffer.replaceSubrange(to..<(to + drawn.width * 4), with: drawn.pixels[from..<(from + drawn.width * 4)])
        }
        try buffer.withUnsafeBytes { try encoder.setPixels($0) }
        let data = try encoder.encode(GPUEncoder.Image(x0: place.x, y0: place.y, stride: place.width, size: plan.size, opaque: drawn.isOpaque,
                                                       repeats: map))
        let gpu = try PNGEncoder(target: .memory, size: plan.size, opaque: drawn.isOpaque, compression: .fast, repeats: map)
        try gpu.finish(encoded: data)
        return (cpuFile, gpu.memoryData ?? [1])
    }

    /// The shapes at the limits (widths 1 to 16,383, heights to 20,000, every mode on each axis,
    /// 1-3 runs, palette, RGBA and 16-colour sources), drawn on the GPU and encoded there.
    @Test(arguments: [
        PixelSize(width: 16383, height: 3), PixelSize(width: 1, height: 20000), PixelSize(width: 3, height: 20000),
        PixelSize(width: 16383, height: 1), PixelSize(width: 257, height: 301),
    ])
    func extremeShapesGiveTheCPUsFile(size: PixelSize) throws {
        let gpu = try GPUTestSupport.backend()
        let session = try #require(gpu.gpu)
        session.gpuEncoding = true
        var encoded = 0
        for (plan, source, label) in try FastCompressionTests.extremePlans(size) {
            let drawn = try Backend.cpu.image(plan, source: source).rgba
            let map = RepeatMap(plan: plan, source: source)
            let cpuFile = try PNGEncoder.memoryFile(PremultipliedImage(drawn), compression: .fast, repeats: map)
            #expect(session.encodes(.png, .fast, size: plan.size) && session.encodes(.png, .default, size: plan.size), "\(label)")
            #expect(!session.encodes(.png, .zlib, size: plan.size) && !session.encodes(.png, .small, size: plan.size), "\(label)")
            let data: EncodedImageData
            do {
                data = try session.encode(GPUSession.OutputToEncode(size: plan.size, opaque: drawn.isOpaque, repeats: map) {
                    (try session.upload(plan, source: source), 4096)
                }, times: nil)
            } catch let error as GlsliceError where error.kind == .unavailable && session.context.isSoftware {
                continue // llvmpipe's loop limit: batch encodes such an output on the CPU
            }
            let file = try PNGEncoder(target: .memory, size: plan.size, opaque: drawn.isOpaque, compression: .fast)
            try file.finish(encoded: data)
            #expect(file.memoryData == cpuFile, "\(label): the GPU's file is not the CPU's")
            encoded += 1
        }
        // Widths to 16,383 px go past llvmpipe's limit when rows are long and matches scarce; most still encode there.
        #expect(encoded >= 5, "\(encoded) of 15 encoded on the GPU")
    }

    /// Round six (issue 69): the adversarial corpus (`EncoderCorpus`: rows repeating k rows back,
    /// rows shifted s px, dithers, a screenshot, two-colour noise), each drawn as a 1:1 render and
    /// a tiled one, encoded on the GPU: the CPU's file, byte for byte.
    @Test func theAdversarialCorpusGivesTheCPUsFile() throws {
        let encoder = try GPUEncoder(context: try GPUContext.make())
        for item in EncoderCorpus.cases(width: 90, height: 60) {
            let source = item.image
            let lattice = try Lattice(width: source.width, height: source.height, insets: PixelInsets(top: 4, left: 4, bottom: 4, right: 4))
            for (size, mode) in [(PixelSize(width: 90, height: 60), ResizeMode.stretch), (PixelSize(width: 173, height: 131), .tile)] {
                let plan = try PlanBuilder.plan(lattice: lattice, size: size, k: 1, modes: PerAxis(x: mode, y: mode), filter: .linear, fillCenter: true)
                let drawn = try Backend.cpu.image(plan, source: source).rgba
                let (cpu, gpu) = try Self.files(plan, source: source, drawn: drawn, encoder: encoder)
                #expect(cpu == gpu, "\(item.name) \(size) \(mode): the GPU's file is not the CPU's")
            }
        }
    }

    /// `PieceGuard` on the GPU (issue 69): an image of two pieces whose tokens pass its limit (rows
    /// repeating 2 back in RGBA: all literals) is coded by zlib 6 from its scanlines read back, the
    /// second piece primed with the first's last 32 KiB; with a shifted image and a 1-bit dither: the
    /// CPU's file, byte for byte. And the screenshot, whose many dear tokens ask zlib 6 too
    /// (`PieceGuard.asksZlib`), the smaller kept: the GPU reads the same counts back; and palette rows
    /// the matcher matches 2-4 rows back (a Bayer dither, 16 colours repeating 3 rows back).
    @Test func piecesPastTheGuardGiveTheCPUsFile() throws {
        let encoder = try GPUEncoder(context: try GPUContext.make())
        let wanted: Set = ["repeat-k2-rgba", "shift-s9-rgba", "dither-noise", "shot-text", "dither-bayer", "repeat-k3-16c"]
        let items = EncoderCorpus.cases(width: 1000, height: 400).filter { wanted.contains($0.name) }
        #expect(Set(items.map(\.name)) == wanted, "the corpus no longer holds every case named here")
        for item in items {
            let source = item.image
            let lattice = try Lattice(width: source.width, height: source.height, insets: PixelInsets(top: 4, left: 4, bottom: 4, right: 4))
            let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: 1000, height: 400), k: 1, modes: PerAxis(x: .stretch, y: .stretch),
                                            filter: .nearest, fillCenter: true)
            let drawn = try Backend.cpu.image(plan, source: source).rgba
            let (cpu, gpu) = try Self.files(plan, source: source, drawn: drawn, encoder: encoder)
            #expect(cpu == gpu, "\(item.name): the GPU's file (\(gpu.count) bytes) is not the CPU's (\(cpu.count))")
        }
    }

    /// Rows the plan writes None whatever their bytes (`RepeatMap.noneRows`: a mirrored texture stretched by
    /// `linear` and repeated, whose rows recur after other rows): the GPU's scanline pass is told them, so its file
    /// is the CPU's, whole (473 x 192) and in strips (473 x 6000, as a giant is).
    @Test func rowsWrittenNoneGiveTheCPUsFile() throws {
        try checkRowsWrittenNone(sizes: ["473x192", "473x6000"], line: { size in
            #"{"pixels": "\#(size)", "scale": 3, "insets": "6,6,6,6", "mode-x": "stretch", "mode-y": "repeat", "filter": "linear", "center": true}"#
        }, check: { none, _ in none.filter { $0 }.count >= none.count / 16 })
    }

    /// Rows `noneRows` writes None as a run's last row and first, for a later row to copy (renderer 19: the bench
    /// manifest's `2191.png`, `texture.png` `round` x `auto` at 2x, 483 x 168): at least one None row equals the row
    /// above (before renderer 19 none did), and the GPU's file is the CPU's, whole and in strips (483 x 6000).
    @Test func runEndsWrittenNoneGiveTheCPUsFile() throws {
        try checkRowsWrittenNone(sizes: ["483x168", "483x6000"], line: { size in
            #"{"pixels": "\#(size)", "scale": 2, "insets": "6,6,6,6", "mode-x": "round", "mode-y": "auto", "filter": "linear", "center": true}"#
        }, check: { none, plainCopies in none.indices.contains { $0 > 0 && none[$0] && plainCopies[$0] == Int32($0 - 1) } })
    }

    /// `texture.png` rendered at `sizes` by the manifest `line`: `check` holds of its None rows and plain copies,
    /// and the GPU's file is the CPU's (in strips where 1,000 rows or more, as a giant is).
    func checkRowsWrittenNone(sizes: [String], line: (String) -> String, check: ([Bool], [Int32]) -> Bool) throws {
        let encoder = try GPUEncoder(context: try GPUContext.make(), budget: GPUMemory.minimumBudget)
        let image = try PNGDecoder.decode(path: "Fixtures/texture.png", maxPixels: 1 << 24).premultiplied()
        let source = ResolvedSource(source: SourceImage(image: image, file: "texture.png"), key: SourceKey(contentHash: "none:texture.png", recipe: .plain))
        for size in sizes {
            let request = try JSONDecoder().decode(RenderRequest.self, from: Data(line(size).utf8))
            let job = try PreparedJob(request: request, source: source, limits: Limits())
            let drawn = try Backend.cpu.image(job.plan, source: job.source.source.image).rgba
            let map = RepeatMap(plan: job.plan, source: job.source.source.image), rowBytes = 1 + 3 * drawn.width
            let none = RepeatDeflater(map: map, width: drawn.width, rowBytes: rowBytes, bitsPerPixel: 24, filtersRows: true, height: drawn.height)
                .noneRows(0..<drawn.height)
            #expect(drawn.isOpaque && check(none, map.copies(of: 0..<drawn.height, lookingBackTo: 0)), "\(size): \(none.filter { $0 }.count) rows None")
            if drawn.height < 1000 {
                let (cpu, gpu) = try Self.files(job.plan, source: job.source.source.image, drawn: drawn, encoder: encoder)
                #expect(cpu == gpu, "\(size): the GPU's file (\(gpu.count) bytes) is not the CPU's (\(cpu.count))")
                continue
            }
            let expected = try PNGEncoder.memoryFile(PremultipliedImage(drawn), compression: .fast, repeats: map)
            var strips = 0
            let data = try encoder.encodeInStrips(size: job.plan.size, opaque: true, repeats: map) { rows, _ in
                strips += 1
                try drawn.pixels[(rows.lowerBound * drawn.width * 4)..<(rows.upperBound * drawn.width * 4)].withUnsafeBytes { try encoder.setPixels($0) }
            }
            let file = try PNGEncoder(target: .memory, size: job.plan.size, opaque: true, compression: .fast)
            try file.finish(encoded: data)
            #expect(strips >= 4 && file.memoryData == expected, "\(size): the GPU's file in \(strips) strips is not the CPU's")
        }
    }

    /// A whole image past 512 KiB given up at its first eighth (`PieceGuard.largeWholeImageBytesPerToken`): the
    /// 28 x 8000 `round` texture, whose first 1,000 rows take 5,875 tokens. The GPU counts the same tokens and
    /// gives the CPU's file, libdeflate's stream of the rows as they were: every row None.
    @Test func aLargeWholeImageGivenUpEarlyGivesTheCPUsFile() throws {
        let encoder = try GPUEncoder(context: try GPUContext.make())
        let image = try PNGDecoder.decode(path: "Fixtures/texture.png", maxPixels: 1 << 24).premultiplied()
        let source = ResolvedSource(source: SourceImage(image: image, file: "texture.png"), key: SourceKey(contentHash: "early:texture.png", recipe: .plain))
        let request = try JSONDecoder().decode(RenderRequest.self, from: Data(#"{"pixels": "28x8000", "mode": "round"}"#.utf8))
        let job = try PreparedJob(request: request, source: source, limits: Limits())
        let drawn = try Backend.cpu.image(job.plan, source: image).rgba
        let (cpu, gpu) = try Self.files(job.plan, source: image, drawn: drawn, encoder: encoder)
        #expect(cpu == gpu, "the GPU's file (\(gpu.count) bytes) is not the CPU's (\(cpu.count))")
        let filters = try SmallFiltersTests.filterBytes(Data(cpu), rowBytes: 1 + 3 * drawn.width, rows: drawn.height)
        #expect(drawn.isOpaque && filters.allSatisfy { $0 == 0 }, "\(filters.filter { $0 != 0 }.count) rows not None: not libdeflate's")
    }

    /// A piece given up by its 4 KiB after its first row (`PieceGuard.early`), which is no checkpoint (its units
    /// are not cut there): 1,366 x 100 RGB, the first row one colour, the rest alike: 400 px of noise, then that
    /// colour. Row 1 (4,099 bytes) takes about 1,200 tokens, over the early check's 1,024, and the rows after
    /// copy it, so 16 KiB's checkpoint (1,366) would pass. The GPU counts the tokens that start in that row alike and gives
    /// the CPU's file, libdeflate's: every row None. And every row that row of noise: not given up (a piece's
    /// first row is not checked), its rows Up where they copy the one above.
    @Test func aPieceGivenUpByItsFirst4KiBGivesTheCPUsFile() throws {
        let encoder = try GPUEncoder(context: try GPUContext.make())
        let width = 1366, height = 100
        var rng = SeededGenerator(seed: 2501)
        let colour: [UInt8] = [40, 90, 160, 255]
        func noiseRow() -> [UInt8] {
            (0..<width).flatMap { x -> [UInt8] in
                x < 400 ? [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), 255] : colour
            }
        }
        let row = noiseRow(), copied = [[UInt8]](repeating: row, count: height).joined()
        let below = Array([[UInt8]](repeating: colour, count: width).joined()) + Array([[UInt8]](repeating: row, count: height - 1).joined())
        for (pixels, givenUp) in [(Array(below), true), (Array(copied), false)] {
            let source = PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels))
            let lattice = try Lattice(width: width, height: height, insets: PixelInsets(top: 1, left: 1, bottom: 1, right: 1))
            let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: width, height: height), k: 1, modes: PerAxis(x: .stretch, y: .stretch),
                                            filter: .nearest, fillCenter: true)
            let drawn = try Backend.cpu.image(plan, source: source).rgba
            let (cpu, gpu) = try Self.files(plan, source: source, drawn: drawn, encoder: encoder)
            #expect(cpu == gpu, "given up \(givenUp): the GPU's file (\(gpu.count) bytes) is not the CPU's (\(cpu.count))")
            let filters = try SmallFiltersTests.filterBytes(Data(cpu), rowBytes: 1 + 3 * width, rows: height)
            #expect(drawn.isOpaque && filters.allSatisfy { $0 == 0 } == givenUp, "given up \(givenUp): \(filters.filter { $0 != 0 }.count) rows not None")
        }
    }

    /// With the smallest GPU budget a dispatch takes one 1 MiB piece: outputs of several pieces are
    /// deflated a piece a dispatch, the Adler-32 combined over them, and still give the CPU's file.
    @Test func dispatchesOfWholePiecesGiveTheCPUsFile() throws {
        let encoder = try GPUEncoder(context: try GPUContext.make(), budget: GPUMemory.minimumBudget)
        let (noise, plans) = try Self.noisePlans(seed: 4242, [(PixelSize(width: 700, height: 900), PerAxis(x: .tile, y: .stretch)),
                                                            (PixelSize(width: 333, height: 2600), PerAxis(x: .round, y: .tile))])
        for plan in plans {
            let size = plan.size
            let drawn = try Backend.cpu.image(plan, source: noise).rgba
            let (cpu, gpu) = try Self.files(plan, source: noise, drawn: drawn, encoder: encoder)
            #expect(cpu.count > 0 && cpu == gpu, "\(size): the GPU's file (\(gpu.count) bytes) is not the CPU's (\(cpu.count))")
        }
    }

    /// An output drawn and encoded a strip at a time (as a giant is): each strip's
    /// matches reach into the strip before through the rows kept from it, and the
    /// file is the CPU's. Strips of 1 MiB: many of them, and rows of 161 bytes (204 kept) to 2,801.
    @Test func outputsInStripsGiveTheCPUsFile() throws {
        let encoder = try GPUEncoder(context: try GPUContext.make(), budget: GPUMemory.minimumBudget)
        let (noise, plans) = try Self.noisePlans(seed: 5353, [(PixelSize(width: 700, height: 2000), PerAxis(x: .tile, y: .stretch)),
                                                            (PixelSize(width: 40, height: 40000), PerAxis(x: .round, y: .stretch))])
        for plan in plans {
            let size = plan.size
            let drawn = try Backend.cpu.image(plan, source: noise).rgba
            let map = RepeatMap(plan: plan, source: noise)
            let expected = try PNGEncoder.memoryFile(PremultipliedImage(drawn), compression: .fast, repeats: map)
            // Strips are for outputs too large for a palette: the CPU's file must not be one.
            #expect(expected.count > 26 && expected[25] != 3, "\(size): the CPU wrote a palette")
            var strips = 0
            let data = try encoder.encodeInStrips(size: size, opaque: drawn.isOpaque, repeats: map) { rows, _ in
                strips += 1
                try drawn.pixels[(rows.lowerBound * size.width * 4)..<(rows.upperBound * size.width * 4)].withUnsafeBytes { try encoder.setPixels($0) }
            }
            let file = try PNGEncoder(target: .memory, size: size, opaque: drawn.isOpaque, compression: .fast)
            try file.finish(encoded: data)
            let same = file.memoryData == expected
            #expect(same, "\(size): the GPU's file in \(strips) strips is not the CPU's")
            #expect(strips >= 4, "\(size): \(strips) strips")
        }
    }

    /// Large outputs drawn one after another into the encoder's buffer and
    /// encoded in one call (as batch groups them): each file is the CPU's, and
    /// an output whose upload fails fails alone. (Columns tiled or spaced: noise
    /// stretched or rounded to 1,300 px runs past llvmpipe's loop limit.)
    @Test func largeOutputsDrawnTogetherGiveEachTheCPUsFile() throws {
        let gpu = try GPUTestSupport.backend()
        let session = try #require(gpu.gpu)
        session.gpuEncoding = true
        let (noise, plans) = try Self.noisePlans(seed: 6161, [(PixelSize(width: 1100, height: 700), PerAxis(x: .tile, y: .stretch)),
                                                            (PixelSize(width: 1300, height: 500), PerAxis(x: .tile, y: .space)),
                                                            (PixelSize(width: 1500, height: 301), PerAxis(x: .space, y: .round))])
        struct UploadFailed: Error {}
        var outputs: [GPUSession.OutputToEncode] = [], expected: [[UInt8]?] = []
        for (k, plan) in plans.enumerated() {
            let drawn = try Backend.cpu.image(plan, source: noise).rgba
            let map = RepeatMap(plan: plan, source: noise)
            let cpuFile = try PNGEncoder.memoryFile(PremultipliedImage(drawn), compression: .fast, repeats: map)
            expected.append(cpuFile)
            outputs.append(GPUSession.OutputToEncode(size: plan.size, opaque: drawn.isOpaque, repeats: map) {
                (try session.upload(plan, source: noise), 64 + 100 * k)
            })
            if k == 1 { // between them, one whose cells cannot be uploaded
                outputs.append(GPUSession.OutputToEncode(size: PixelSize(width: 900, height: 900), opaque: true, repeats: .none) {
                    throw UploadFailed()
                })
                expected.append(nil)
            }
        }
        #expect(outputs.reduce(0) { $0 + $1.size.width * $1.size.height } <= session.wholeEncodingPixels)
        for (k, (result, file)) in zip(try session.encode(outputs, times: nil), zip(outputs, expected)).enumerated() {
            guard let cpu = file.1 else {
                #expect(throws: UploadFailed.self) { try result.get() }
                continue
            }
            let written = try PNGEncoder(target: .memory, size: file.0.size, opaque: file.0.opaque, compression: .fast)
            try written.finish(encoded: try result.get())
            let same = written.memoryData == cpu
            #expect(same, "output \(k) (\(file.0.size)): the GPU's file is not the CPU's")
        }
    }

    /// A 12 × 12 noise source with 3-pixel caps, and its plans for each size and pair of modes.
    static func noisePlans(seed: UInt64, _ shapes: [(PixelSize, PerAxis<ResizeMode>)]) throws -> (noise: PremultipliedImage, plans: [Plan]) {
        var rng = SeededGenerator(seed: seed)
        let noise = Parity.randomImage(width: 12, height: 12, rng: &rng)
        let segments = [Segment(0, 3, scalable: false), Segment(3, 9, scalable: true), Segment(9, 12, scalable: false)]
        let lattice = try Lattice(width: 12, height: 12, x: segments, y: segments)
        return (noise, try shapes.map { size, modes in
            try PlanBuilder.plan(lattice: lattice, size: size, k: 1, modes: modes, filter: .linear, fillCenter: true)
        })
    }

    /// Parity's random jobs, a third quantized to few colours (palettes of 1-8 bits), some placed as in an atlas.
    @Test func randomJobsGiveTheCPUsFile() throws {
        let encoder = try GPUEncoder(context: try GPUContext.make())
        let cases = Int(ProcessInfo.processInfo.environment["GLSLICE_ENCODER_CASES"] ?? "") ?? 300
        var kinds = Set<[UInt8]>()
        for index in 0..<cases {
            let job = Self.job(index, seed: 2626)
            let drawn = try Backend.cpu.image(job.plan, source: job.source).rgba
            let atlas = index % 4 == 0 ? (x: 3, y: 5, width: drawn.width + 11) : nil
            let (cpu, gpu) = try Self.files(job.plan, source: job.source, drawn: drawn, encoder: encoder, atlas: atlas)
            #expect(cpu == gpu, "\(job): the GPU's file (\(gpu.count) bytes) is not the CPU's (\(cpu.count))")
            if gpu.count > 26 { kinds.insert([gpu[24], gpu[25]]) } // IHDR: bit depth, colour type
        }
        // Palettes of 1, 2, 4 and 8 bits, RGB and RGBA were all written.
        #expect(kinds.isSuperset(of: [[1, 3], [2, 3], [4, 3], [8, 3], [8, 2], [8, 6]]), "\(kinds)")
    }

    /// Parity's job `index`, a third of them quantized to few colours.
    static func job(_ index: Int, seed: UInt64) -> Parity.Job {
        var job = Parity.job(index: index, seed: seed)
        if index % 3 == 1 { job.source = FastCompressionTests.quantized(job.source, colours: [1, 2, 3, 5, 17, 200][index % 6]) }
        return job
    }

    /// Outputs side by side in one buffer, as in an atlas, encoded in one call
    /// (the passes take them all): each output's file is the CPU's.
    @Test func manyOutputsInOneCallGiveEachTheCPUsFile() throws {
        let encoder = try GPUEncoder(context: try GPUContext.make())
        var index = 0, outputs = 0
        for group in 0..<25 {
            var members: [(job: Parity.Job, drawn: RGBAImage, cpu: [UInt8])] = []
            for _ in 0..<(1 + group % 13) {
                let job = Self.job(index, seed: 3737)
                index += 1
                let drawn = try Backend.cpu.image(job.plan, source: job.source).rgba
                let map = RepeatMap(plan: job.plan, source: job.source)
                let cpuFile = try PNGEncoder.memoryFile(PremultipliedImage(drawn), compression: .fast, repeats: map)
                members.append((job, drawn, cpuFile))
            }
            // Left to right, a column of garbage between, on rows 2 on.
            let width = members.reduce(0) { $0 + $1.drawn.width + 1 }, height = 2 + (members.map(\.drawn.height).max() ?? 0)
            var buffer = [UInt8](repeating: 0xA5, count: width * height * 4)
            var images: [GPUEncoder.Image] = [], x = 0
            for member in members {
                let drawn = member.drawn
                for y in 0..<drawn.height {
                    let from = y * drawn.width * 4, to = ((2 + y) * width + x) * 4
                    buffer.replaceSubrange(to..<(to + drawn.width * 4), with: drawn.pixels[from..<(from + drawn.width * 4)])
                }
                images.append(GPUEncoder.Image(x0: x, y0: 2, stride: width, size: member.job.plan.size, opaque: drawn.isOpaque,
                                               repeats: RepeatMap(plan: member.job.plan, source: member.job.source)))
                x += drawn.width + 1
            }
            try buffer.withUnsafeBytes { try encoder.setPixels($0) }
            for (member, (result, image)) in zip(members, zip(try encoder.encode(images), images)) {
                let file = try PNGEncoder(target: .memory, size: image.size, opaque: image.opaque, compression: .fast)
                try file.finish(encoded: try result.get())
                let same = file.memoryData == member.cpu
                #expect(same, "group \(group) of \(members.count), \(member.job): the GPU's file is not the CPU's")
                outputs += 1
            }
        }
        #expect(outputs == (0..<25).reduce(0) { $0 + 1 + $1 % 13 })
    }
}
