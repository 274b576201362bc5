extension PreparedJob {
    /// The job as the GPU's compute encoder takes it (`GPUSession.encode`): its size, opacity
    /// and repeat map, and its cells uploaded when the encoder draws it, in strips within the
    /// encoder's share of the budget. The one place a prepared job becomes a GPU encoding:
    /// the engine's draw loop (batch, serve) and `render` both come through here.
    func encodingOnGPU(_ gpu: GPUSession, strips: Strips = Strips()) -> GPUSession.OutputToEncode {
        var sized = strips
        sized.stripBytes = min(sized.stripBytes, gpu.memory.encodingStripBytes)
        return GPUSession.OutputToEncode(size: size, opaque: isOpaque, repeats: repeats) { [sized, plan, source, taps] in
            let drawer = try Backend.gpuDrawer(plan, source: source.image, key: source.key, taps: taps, on: gpu)
            return (drawer, sized.rows(width: plan.size.width, height: plan.size.height, drawer: drawer))
        }
    }
}
