/// The words for what this machine cannot do now (`.unavailable`: exit 69,
/// HTTP 503): no GL context, a stopping server, a port already taken. Each
/// condition is worded once here.
package enum UnavailableErrors {
    /// Every way of opening a context was tried (`attempts`: "what: why"); none worked.
    /// No context came up; `attempts` names each display tried and why it failed.
    package static func noContext(attempts: [(display: String, failure: String?)] = []) -> GlsliceError {
        GlsliceError(.unavailable, "no usable EGL/OpenGL ES 3 context"
                     + (attempts.isEmpty ? "" : ": " + attempts.map { "\($0.display): \($0.failure ?? "?")" }.joined(separator: "; ")))
    }
    static func contextCreationFailed(_ code: String) -> GlsliceError {
        GlsliceError(.unavailable, "eglCreateContext (ES 3.0) failed: \(code)")
    }
    static func addressSpace(headroom: Int, needed: Int) -> GlsliceError {
        GlsliceError(.unavailable, "the address-space limit (ulimit -v) leaves \(headroom >> 20) MiB, "
                     + "less than the \(needed >> 20) MiB a GL driver may map; raise it or use --backend cpu")
    }
    /// An EGL call that failed, with `eglGetError`'s name (`kind`: internal once a context is up).
    static func eglFailed(_ call: String, _ code: String, kind: GlsliceError.Kind = .unavailable) -> GlsliceError {
        GlsliceError(kind, "\(call) failed: \(code)")
    }
    static func noDisplay(_ code: String) -> GlsliceError {
        GlsliceError(.unavailable, "no EGL display: \(code)")
    }
    static func notES3(_ version: String) -> GlsliceError {
        GlsliceError(.unavailable, "context is '\(version)', not OpenGL ES 3")
    }
    /// GPU encoding needs compute shaders: OpenGL ES 3.1 or later.
    static func noCompute(_ version: String) -> GlsliceError {
        GlsliceError(.unavailable, "context is '\(version)': GPU encoding needs OpenGL ES 3.1 compute shaders")
    }
    /// llvmpipe cut an encoding pass short (its 65,535 loop iterations an invocation): the output is encoded on the CPU.
    static func gpuLoopLimit(_ renderer: String) -> GlsliceError {
        GlsliceError(.unavailable, "\(renderer) ran out of loop iterations in a GPU encoding pass; the CPU encodes this output")
    }
    /// An output encoded in bands on the GPU compressed to more than the GPU thread holds: the CPU encodes it, streaming.
    static func gpuStreamOverLimit(bytes: Int) -> GlsliceError {
        GlsliceError(.unavailable, "GPU encoding gave over \(bytes) bytes of image data, more than it holds; the CPU encodes this output")
    }
    /// What a GPU encoding call counts against its passes' limits.
    enum EncodingLimit {
        case rows, scanlineBytes, scanlineEnd, streamBytes, pixels, rowBytes

        var words: String {
            switch self {
            case .rows: "rows"
            case .scanlineBytes: "scanline bytes"
            case .scanlineEnd: "bytes of scanlines before its end"
            case .streamBytes: "bytes of deflate stream in one call"
            case .pixels: "pixels"
            case .rowBytes: "bytes in a filtered row"
            }
        }
    }
    /// An encoding call over one of its passes' limits: the caller cuts it smaller, or the CPU encodes the output.
    static func gpuEncodeOverLimit(_ what: EncodingLimit, _ count: Int, limit: Int) -> GlsliceError {
        GlsliceError(.unavailable, "a GPU encoding pass takes at most \(limit) \(what.words), not \(count); the CPU encodes this output")
    }
    /// The GPU's compute passes wrote other bytes than the CPU's encoder for a known image.
    static func gpuEncodingDisagrees(_ renderer: String) -> GlsliceError {
        GlsliceError(.unavailable, "\(renderer)'s compute passes wrote other bytes than the CPU's encoder; the CPU encodes every output")
    }
    static func noConfig() -> GlsliceError {
        GlsliceError(.unavailable, "eglChooseConfig found no ES 3 pbuffer config")
    }
    static func gpuThreadStopped() -> GlsliceError { GlsliceError(.unavailable, "the GPU thread has stopped") }
    package static func serverStopping() -> GlsliceError { GlsliceError(.unavailable, "the server is stopping") }
    package static func addressInUse(_ bind: String) -> GlsliceError {
        GlsliceError(.unavailable, "cannot serve on \(bind): another process is listening there; "
            + "choose another address with --bind HOST:PORT (port 0 picks a free one)")
    }
    package static func cannotServe(on bind: String, _ reason: String) -> GlsliceError {
        GlsliceError(.unavailable, "cannot serve on \(bind): \(reason)")
    }
}
