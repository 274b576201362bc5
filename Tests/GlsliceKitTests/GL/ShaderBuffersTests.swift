import Testing
@testable import GlsliceKit

/// The compute encoder's buffers keep their storage through a burst of calls (issue 52:
/// llvmpipe zero-filled each new store), and give it back after one.
@Suite(.serialized, .enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct ShaderBuffersTests {
    /// Counted by hand: 1,000 words hold 4,000 bytes; 10 words later reuse them (still 4,000 held)
    /// and read back as written; 2,000 words take new storage (8,000); `shrink` keeping 1,024
    /// bytes leaves 4. Each upload reads back as written, whatever the store held before.
    @Test func aSmallerUploadKeepsItsStoreAndShrinkGivesItBack() throws {
        let gpu = try GPUTestSupport.backend()
        let session = try #require(gpu.gpu)
        try session.context.makeCurrent()
        let memory = GPUMemory()
        let buffers = try ShaderBuffers(count: 1, memory: memory)
        let first = (0..<1000).map { UInt32($0) &* 2_654_435_761 }
        try first.withUnsafeBytes { try buffers.upload(0, $0) }
        #expect(memory.bytes(.encoder) == 4000)
        #expect(try buffers.read(0, words: 1000) == first)
        let second = [UInt32](repeating: 7, count: 10)
        try second.withUnsafeBytes { try buffers.upload(0, $0) }
        #expect(memory.bytes(.encoder) == 4000)
        #expect(try buffers.read(0, words: 10) == second)
        #expect(try buffers.read(0, words: 1, from: 10) == [first[10]]) // kept: the rest as it was
        let third = [UInt32](repeating: 9, count: 2000)
        try third.withUnsafeBytes { try buffers.upload(0, $0) }
        #expect(memory.bytes(.encoder) == 8000)
        #expect(try buffers.read(0, words: 2000) == third)
        try buffers.shrink(keeping: 1024)
        #expect(memory.bytes(.encoder) == 4)
    }
}
