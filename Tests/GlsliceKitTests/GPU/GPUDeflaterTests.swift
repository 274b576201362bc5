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
        let rows = try bytes.withUnsafeBytes { try gpu.tokens(deflater, scanlines: $0, firstRowByte: 0, firstRow: 0, rows: drawn.height) }
        #expect(rows.count == drawn.height, "\(label)")
        let flat = rows.flatMap { $0 }
        if flat != cpu {
            let first = zip(flat, cpu).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(flat.count, cpu.count)
            func show(_ t: [DeflateToken]) -> String { t.map { $0.isMatch ? "m\($0.length),\($0.distance)" : "l\($0.literal)" }.joined(separator: " ") }
            if ProcessInfo.processInfo.environment["DEBUG_TOKENS"] != nil {
                print("rowBytes \(rowBytes) parts \(deflater.packedParts) copies \(deflater.copyBacks(firstRow: 0, rows: drawn.height, history: 0))")
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

    /// A failed dispatch is one clear error naming the call, never a crash.
    @Test func aFailedDispatchIsAnError() throws {
        let gpu = try GPUDeflater(context: try GPUContext.make())
        #expect {
            try gpu.dispatch(groups: Int(Int32.max) + 10)
        } throws: { error in
            "\(error)".contains("glDispatchCompute") && "\(error)".contains("GL_INVALID_VALUE")
        }
    }
}
