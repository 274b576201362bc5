import Foundation

/// How the GPU path draws: parameters, never environment reads inside the library.
package struct GPUSettings: Sendable {
    /// Read back through a ring of pixel-pack buffers; nil takes it on hardware GPUs (not llvmpipe).
    package var pixelPackRing: Bool?
    /// Encode `fast` PNGs with compute passes; nil takes it on hardware GPUs (not llvmpipe).
    package var gpuEncoding: Bool?
    /// Bytes of drawn pixels allowed to wait for the encoders.
    var inFlightBytes: Int
    /// GPU memory the session is held to (`--gpu-mb`; see `GPUMemory`).
    package var budgetBytes: Int

    init(pixelPackRing: Bool? = nil, inFlightBytes: Int = 512 << 20, budgetBytes: Int = GPUMemory.defaultBudget) {
        self.pixelPackRing = pixelPackRing
        self.inFlightBytes = inFlightBytes
        self.budgetBytes = budgetBytes
    }
}
