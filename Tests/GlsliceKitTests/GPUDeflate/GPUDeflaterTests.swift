import Foundation
import Testing
@testable import GlsliceKit

/// The compute pass that chooses `fast`'s tokens (issue 43) must choose the
/// CPU's, row for row: the same tokens give the same deflate bytes.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPUDeflaterTests {
    /// Scanlines (filter byte 0, then the row) of a drawn image: RGBA, RGB, or one byte a pixel.
    static func scanlines(_ image: RGBAImage, channels: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(image.height * (1 + image.width * channels))
        for y in 0..<image.height {
            bytes.append(0)
            for x in 0..<image.width {
                let p = (y * image.width + x) * 4
                switch channels {
                case 1: bytes.append(image.pixels[p] &+ image.pixels[p + 1] &* 3)
                case 3: bytes += image.pixels[p..<(p + 3)]
                default: bytes += image.pixels[p..<(p + 4)]
                }
            }
        }
        return bytes
    }

    /// CPU and GPU tokens for one image's scanlines, compared row by row.
    func compare(_ plan: Plan, source: PremultipliedImage, channels: Int, deflater gpu: GPUDeflater, _ label: String) throws {
        let drawn = try Backend.cpu.image(plan, source: source).rgba
        let bytes = Self.scanlines(drawn, channels: channels)
        let rowBytes = 1 + drawn.width * channels
        let deflater = RepeatDeflater(map: RepeatMap(plan: plan, source: source), width: drawn.width, rowBytes: rowBytes,
                                      bitsPerPixel: 8 * channels)
        let cpu = bytes.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: drawn.height) }
        try bytes.withUnsafeBytes { try gpu.setScanlines($0) }
        let rows = try gpu.tokens(GPUDeflater.Job(deflater: deflater, firstRowByte: 0, oldest: 0, firstRow: 0, rows: drawn.height, endsImage: true))
        #expect(rows.count == drawn.height, "\(label)")
        let flat = rows.flatMap { $0 }
        if flat != cpu {
            let first = zip(flat, cpu).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(flat.count, cpu.count)
            func show(_ t: [DeflateToken]) -> String { t.map { $0.isMatch ? "m\($0.length),\($0.distance)" : "l\($0.literal)" }.joined(separator: " ") }
            if ProcessInfo.processInfo.environment["DEBUG_TOKENS"] != nil {
                print("rowBytes \(rowBytes) parts \({ var words: [UInt32] = []; deflater.appendPackedParts(to: &words); return words }()) copies \(deflater.rowCopies(firstRow: 0, rows: drawn.height, history: 0, pieceRows: drawn.height))")
                print("CPU", show(Array(cpu[max(0, first - 8)..<min(cpu.count, first + 12)])))
                print("GPU", show(Array(flat[max(0, first - 8)..<min(flat.count, first + 12)])))
                print("bytes", Array(bytes.prefix(rowBytes * 4)))
            }
            Issue.record("\(label): GPU tokens differ from the CPU's at token \(first) of \(cpu.count) (GPU \(flat.count))")
        }
    }

    /// Parity's random jobs (every mode per axis, lattices, both filters), as RGBA, RGB and one byte a pixel.
    @Test func randomJobsGiveTheCPUsTokens() throws {
        let context = try GPUContext.make()
        let gpu = try GPUDeflater(context: context)
        let cases = Int(ProcessInfo.processInfo.environment["GLSLICE_ENCODER_CASES"] ?? "") ?? 300
        for index in 0..<cases {
            let job = Parity.job(index: index, seed: 4343)
            try compare(job.plan, source: job.source, channels: [4, 3, 1][index % 3], deflater: gpu, "\(job)")
        }
    }

    /// The zlib stream `SegmentedZlib` writes with `RepeatDeflater` on one thread.
    static func cpuStream(_ bytes: [UInt8], deflater: RepeatDeflater, rowBytes: Int, cuts: SegmentedZlib.Cuts) throws -> [UInt8] {
        var out: [UInt8] = []
        let zlib = SegmentedZlib(coder: .repeats(deflater), totalBytes: bytes.count, rowBytes: rowBytes, threads: 1, cuts: cuts) { out += $0 }
        for r in 0..<(bytes.count / rowBytes) {
            try zlib.appendRows(1) { _, row in bytes.withUnsafeBufferPointer { row.update(from: $0.baseAddress! + r * rowBytes, count: rowBytes) } }
        }
        try zlib.finish()
        return out
    }

    /// The GPU's whole stream against the CPU's: the zlib header and Adler-32 around the GPU's pieces.
    func compareStreams(_ bytes: [UInt8], deflater: RepeatDeflater, rowBytes: Int, cuts: SegmentedZlib.Cuts, gpu: GPUDeflater, _ label: String) throws {
        let cpu = try Self.cpuStream(bytes, deflater: deflater, rowBytes: rowBytes, cuts: cuts)
        let rows = bytes.count / rowBytes
        try bytes.withUnsafeBytes { try gpu.setScanlines($0) }
        let job = GPUDeflater.Job(deflater: deflater, firstRowByte: 0, oldest: 0, firstRow: 0, rows: rows, cuts: cuts, endsImage: true)
        let deflated = try gpu.deflate([job])[0].get()
        let whole = Array(cpu.prefix(2)) + deflated.stream + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: deflated.adler >> $0) }
        if whole != cpu {
            let at = zip(whole, cpu).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(whole.count, cpu.count)
            Issue.record("\(label): the GPU's stream differs from the CPU's at byte \(at) of \(cpu.count) (GPU \(whole.count))")
        }
    }

    /// Random jobs, cut into small pieces (several a job) and into standard ones: the same zlib stream, byte for byte.
    @Test func randomJobsGiveTheCPUsStream() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make())
        let cases = Int(ProcessInfo.processInfo.environment["GLSLICE_ENCODER_CASES"] ?? "") ?? 300
        for index in 0..<cases {
            let c = try Self.randomCase(index, seed: 9191)
            try compareStreams(c.bytes, deflater: c.deflater, rowBytes: c.rowBytes, cuts: c.cuts, gpu: gpu, c.label)
        }
    }

    /// Noise, stored by the CPU (FastCompressionTests.noiseIsStoredAsItIs): the GPU's stream stores
    /// the same pieces, read back from its scanlines, in one piece and in pieces of 1,500 bytes.
    @Test func noiseIsStoredAsTheCPUStoresIt() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make())
        let deflater = RepeatDeflater(map: .none, width: 100, rowBytes: 301, bitsPerPixel: 24)
        let bytes = FastCompressionTests.noise(rows: 240, rowBytes: 301)
        for cuts in [SegmentedZlib.Cuts(pieceBytes: 1500), .standard] {
            let cpu = try Self.cpuStream(bytes, deflater: deflater, rowBytes: 301, cuts: cuts)
            #expect(cpu.count < bytes.count + 5 * 60 + 6, "stored: \(cpu.count) bytes for \(bytes.count)")
            try compareStreams(bytes, deflater: deflater, rowBytes: 301, cuts: cuts, gpu: gpu, "noise in pieces of \(cuts.pieceBytes)")
        }
    }

    /// Parity's job `index` as scanlines of 4, 3 or 1 bytes a pixel, with its deflater, cut into small pieces or standard ones.
    static func randomCase(_ index: Int, seed: UInt64) throws
        -> (bytes: [UInt8], deflater: RepeatDeflater, rowBytes: Int, rows: Int, cuts: SegmentedZlib.Cuts, label: String) {
        let job = Parity.job(index: index, seed: seed)
        let channels = [4, 3, 1][index % 3]
        let drawn = try Backend.cpu.image(job.plan, source: job.source).rgba
        let rowBytes = 1 + drawn.width * channels
        let deflater = RepeatDeflater(map: RepeatMap(plan: job.plan, source: job.source), width: drawn.width, rowBytes: rowBytes,
                                      bitsPerPixel: 8 * channels)
        let cuts = index % 2 == 0 ? SegmentedZlib.Cuts(pieceBytes: 1500) : .standard
        return (scanlines(drawn, channels: channels), deflater, rowBytes, drawn.height, cuts, "\(job)")
    }

    /// Many jobs in one call (as an atlas's outputs go): each image's scanlines
    /// from a word of their own, every job with its own shape, cuts and map;
    /// each stream is still the CPU's. The matcher must not reach into the image before.
    @Test func manyJobsInOneCallGiveEachTheCPUsStream() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make())
        for group in 0..<12 {
            var all: [UInt8] = [], jobs: [GPUDeflater.Job] = [], expected: [[UInt8]] = []
            for member in 0..<(1 + group % 9) {
                let (bytes, deflater, rowBytes, rows, cuts, _) = try Self.randomCase(group * 10 + member, seed: 5151)
                expected.append(try Self.cpuStream(bytes, deflater: deflater, rowBytes: rowBytes, cuts: cuts))
                // The image before ends as this one begins (the same bytes), so a match reaching back would be found.
                all += bytes.suffix(min(bytes.count, 64 * 1024))
                all += [UInt8](repeating: 0, count: (4 - all.count % 4) % 4)
                jobs.append(GPUDeflater.Job(deflater: deflater, firstRowByte: all.count, oldest: all.count, firstRow: 0, rows: rows,
                                            cuts: cuts, endsImage: true))
                all += bytes
                all += [UInt8](repeating: 0, count: (4 - all.count % 4) % 4)
            }
            try all.withUnsafeBytes { try gpu.setScanlines($0) }
            for (member, (result, cpu)) in zip(try gpu.deflate(jobs), expected).enumerated() {
                let deflated = try result.get()
                let whole = Array(cpu.prefix(2)) + deflated.stream + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: deflated.adler >> $0) }
                let same = whole == cpu
                #expect(same, "group \(group), job \(member) of \(jobs.count): the GPU's stream is not the CPU's")
            }
        }
    }

    /// Noise: mostly literals, so a piece has many blocks of 32,768 tokens, most beginning inside a row;
    /// and an image that ends where a piece is cut (an empty final block follows).
    @Test func blocksInsideRowsAndAnImageEndingOnACut() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make())
        var rng = SeededGenerator(seed: 77)
        let width = 700, height = 500, rowBytes = 1 + width * 4
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        for i in bytes.indices where i % rowBytes != 0 { bytes[i] = UInt8.random(in: 0...255, using: &rng) & 0xF7 }
        let deflater = RepeatDeflater(map: .none, width: width, rowBytes: rowBytes, bitsPerPixel: 32)
        try compareStreams(bytes, deflater: deflater, rowBytes: rowBytes, cuts: .standard, gpu: gpu, "noise \(width)x\(height)")
        let cut = SegmentedZlib.Cuts(pieceBytes: rowBytes * 100)
        try compareStreams(bytes, deflater: deflater, rowBytes: rowBytes, cuts: cut, gpu: gpu, "noise cut every 100 rows")
    }

    /// Rows where the matcher skips bytes after its misses (`RepeatDeflater.skipShift`): noise with
    /// smooth stretches (near misses start the count again) and bytes copied from earlier rows, some
    /// landing on skipped bytes; one, three and four bytes a pixel. The CPU's tokens, and some skipped.
    @Test func skippedBytesGiveTheCPUsTokens() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make())
        var rng = SeededGenerator(seed: 79)
        for channels in [1, 3, 4] {
            let width = 400, height = 40, rowBytes = 1 + width * channels
            var bytes = [UInt8](repeating: 0, count: rowBytes * height)
            for y in 0..<height {
                for x in 1..<rowBytes {
                    let i = y * rowBytes + x
                    // Noise, but a smooth stretch every 600 bytes and, here and there, 12 bytes from the row above.
                    bytes[i] = (x / 600) % 2 == 1 ? UInt8(truncatingIfNeeded: x / 7 + y) : UInt8.random(in: 0...255, using: &rng)
                }
                for _ in 0..<3 where y > 0 {
                    let at = Int.random(in: 1..<(rowBytes - 12), using: &rng)
                    for k in 0..<12 { bytes[y * rowBytes + at + k] = bytes[(y - 1) * rowBytes + at + k] }
                }
            }
            let deflater = RepeatDeflater(map: .none, width: width, rowBytes: rowBytes, bitsPerPixel: 8 * channels)
            let cpu = bytes.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: height) }
            #expect(cpu.contains { $0.isMatch }, "\(channels) bytes a pixel: some repeats found")
            try bytes.withUnsafeBytes { try gpu.setScanlines($0) }
            let rows = try gpu.tokens(GPUDeflater.Job(deflater: deflater, firstRowByte: 0, oldest: 0, firstRow: 0, rows: height, endsImage: true))
            #expect(rows.flatMap { $0 } == cpu, "\(channels) bytes a pixel: the GPU's tokens are the CPU's")
            try compareStreams(bytes, deflater: deflater, rowBytes: rowBytes, cuts: SegmentedZlib.Cuts(pieceBytes: 7 * rowBytes), gpu: gpu,
                               "skipping, \(channels) bytes a pixel, pieces of 7 rows")
        }
    }

    /// More units than one dispatch's hash tables (64 at the smallest budget): the units go in waves
    /// that share the tables, and every unit's tokens are still the CPU's. Rows of four byte values,
    /// so the hash finds matches at many distances.
    @Test func unitsBeyondTheHashTablesGoInWaves() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make(), memory: GPUMemory(budget: GPUMemory.minimumBudget))
        #expect(gpu.tableSlots == 64)
        var rng = SeededGenerator(seed: 78)
        let width = 700, height = 300, rowBytes = 1 + width * 4 // two rows a unit: 150 units
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        for i in bytes.indices where i % rowBytes != 0 { bytes[i] = [0, 17, 200, 255][Int.random(in: 0..<4, using: &rng)] }
        let deflater = RepeatDeflater(map: .none, width: width, rowBytes: rowBytes, bitsPerPixel: 32)
        let cpu = bytes.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: height) }
        #expect(cpu.contains { $0.isMatch && $0.distance > 8 && $0.distance < rowBytes - 8 }, "the hash's candidates found matches")
        try bytes.withUnsafeBytes { try gpu.setScanlines($0) }
        let rows = try gpu.tokens(GPUDeflater.Job(deflater: deflater, firstRowByte: 0, oldest: 0, firstRow: 0, rows: height, endsImage: true))
        #expect(rows.flatMap { $0 } == cpu)
        try compareStreams(bytes, deflater: deflater, rowBytes: rowBytes, cuts: .standard, gpu: gpu, "four values, 150 units in three waves")
    }

    /// Copy runs (a row's tokens may reach into the rows after it), over rows of 5 and 4 bytes:
    /// runs of hundreds of rows, runs whose distance changes, and runs cut where pieces start
    /// (pieces of 1, 7 and 60 rows, and standard ones): the CPU's stream, byte for byte.
    @Test func copyRunsGiveTheCPUsStream() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make())
        for rowBytes in [4, 5] {
            // Rows 0-299 one row; then rows alternating two others (runs two rows back); then a run of a fourth.
            let rows = 900
            let key: @Sendable (Int) -> UInt64 = { y in y < 300 ? 1 : y < 600 ? UInt64(2 + y % 2) : 4 }
            var data: [UInt8] = []
            for y in 0..<rows {
                data.append(0)
                for x in 1..<rowBytes { data.append(UInt8(truncatingIfNeeded: Int(key(y)) * 40 + x)) }
            }
            let map = RepeatMap(rowKeys: { range in range.map { RepeatMap.RowKey(high: key($0), low: 1) } },
                                columnPeriods: [(0..<(rowBytes - 1), rowBytes - 1)])
            let deflater = RepeatDeflater(map: map, width: rowBytes - 1, rowBytes: rowBytes, bitsPerPixel: 8)
            for pieceBytes in [1, 7 * rowBytes, 60 * rowBytes, SegmentedZlib.Cuts.standard.pieceBytes] {
                try compareStreams(data, deflater: deflater, rowBytes: rowBytes, cuts: SegmentedZlib.Cuts(pieceBytes: pieceBytes), gpu: gpu,
                                   "copy runs, \(rowBytes)-byte rows, pieces of \(pieceBytes) bytes")
            }
        }
    }

    /// A failed dispatch is one clear error naming the call, never a crash.
    @Test func aFailedDispatchIsAnError() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make())
        #expect {
            try gpu.dispatchChooser(x: Int(Int32.max) + 10, y: 1)
        } throws: { error in
            "\(error)".contains("glDispatchCompute") && "\(error)".contains("GL_INVALID_VALUE")
        }
    }
}
