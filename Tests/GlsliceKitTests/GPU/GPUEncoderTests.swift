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
        let cpu = try PNGEncoder(target: .memory, size: plan.size, opaque: drawn.isOpaque, compression: .fast, repeats: map, threads: 1)
        try drawn.pixels.withUnsafeBufferPointer { try cpu.write(premultipliedRows: $0.baseAddress!, count: drawn.height) }
        try cpu.finish()
        // The output placed in a wider buffer, as in an atlas: garbage around it.
        let place = atlas ?? (0, 0, drawn.width)
        var buffer = [UInt8](repeating: 0x5A, count: (place.y + drawn.height + 1) * place.width * 4)
        for y in 0..<drawn.height {
            let from = y * drawn.width * 4, to = ((place.y + y) * place.width + place.x) * 4
            buffer.replaceSubrange(to..<(to + drawn.width * 4), with: drawn.pixels[from..<(from + drawn.width * 4)])
        }
        try buffer.withUnsafeBytes { try encoder.setPixels($0) }
        let data = try encoder.encode(x0: place.x, y0: place.y, stride: place.width, size: plan.size, opaque: drawn.isOpaque, repeats: map)
        let gpu = try PNGEncoder(target: .memory, size: plan.size, opaque: drawn.isOpaque, compression: .fast, repeats: map)
        try gpu.finish(encoded: data)
        return (cpu.memoryData ?? [], gpu.memoryData ?? [1])
    }

    /// Parity's random jobs, a third quantized to few colours (palettes of 1-8 bits), some placed as in an atlas.
    @Test func randomJobsGiveTheCPUsFile() throws {
        let encoder = try GPUEncoder(context: try GPUContext.make())
        let cases = Int(ProcessInfo.processInfo.environment["GLSLICE_ENCODER_CASES"] ?? "") ?? 300
        var kinds = Set<[UInt8]>()
        for index in 0..<cases {
            var job = Parity.job(index: index, seed: 2626)
            if index % 3 == 1 { job.source = FastCompressionTests.quantized(job.source, colours: [1, 2, 3, 5, 17, 200][index % 6]) }
            let drawn = try Backend.cpu.image(job.plan, source: job.source).rgba
            let atlas = index % 4 == 0 ? (x: 3, y: 5, width: drawn.width + 11) : nil
            let (cpu, gpu) = try Self.files(job.plan, source: job.source, drawn: drawn, encoder: encoder, atlas: atlas)
            #expect(cpu == gpu, "\(job): the GPU's file (\(gpu.count) bytes) is not the CPU's (\(cpu.count))")
            if gpu.count > 26 { kinds.insert([gpu[24], gpu[25]]) } // IHDR: bit depth, colour type
        }
        // Palettes of 1, 2, 4 and 8 bits, RGB and RGBA were all written.
        #expect(kinds.isSuperset(of: [[1, 3], [2, 3], [4, 3], [8, 3], [8, 2], [8, 6]]), "\(kinds)")
    }
}
