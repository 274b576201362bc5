/// The words for a bug or an impossible state (`.internal`: exit 70, HTTP
/// 500): a GL call that failed on a working context, a library that gave
/// up, a writer used out of order. Each condition is worded once here.
enum InternalErrors {
    /// Anything thrown that is not a `GlsliceError`, naming its cause.
    static func unexpected(_ error: any Error) -> GlsliceError {
        GlsliceError(.internal, "unexpected error (a bug: please report it): \(error)")
    }

    // MARK: GL

    /// A GL call that failed; `detail` is `glGetError`'s name or what came back.
    static func glFailed(_ call: String, _ detail: String) -> GlsliceError {
        GlsliceError(.internal, "\(call) failed: \(detail)")
    }
    /// A shader that did not compile or a program that did not link, with the driver's log.
    static func shaderCompileFailed(_ name: String, log: String) -> GlsliceError {
        GlsliceError(.internal, "compiling \(name) failed: \(log)")
    }
    static func programLinkFailed(_ name: String, log: String) -> GlsliceError {
        GlsliceError(.internal, "linking \(name) failed: \(log)")
    }
    /// A uniform or attribute (`call` names the lookup) the linked program lacks.
    static func shaderVariableMissing(_ call: String) -> GlsliceError {
        GlsliceError(.internal, "\(call) failed: found nothing")
    }
    static func atlasFull(_ size: String, side: Int) -> GlsliceError {
        GlsliceError(.internal, "output \(size) does not fit a \(side)² atlas")
    }
    /// A strip larger than the GPU's framebuffer (`width` nil: too many rows).
    static func stripOverGPULimit(width: Int?, rows: Int, limit: String) -> GlsliceError {
        GlsliceError(.internal, (width.map { "a strip of \($0)x\(rows) px" } ?? "a strip of \(rows) rows") + " exceeds this GPU's limit \(limit)")
    }
    /// PNG image data made on the GPU, handed to a WebP encoder: a bug.
    static func encodedForAnotherFormat() -> GlsliceError {
        GlsliceError(.internal, "PNG image data encoded on the GPU was handed to another format's encoder")
    }
    /// A draw's taps texture larger than the GPU takes.
    static func tapsOverGPULimit(width: Int, rows: Int, limit: String) -> GlsliceError {
        GlsliceError(.internal, "taps of \(width)x\(rows) exceeds this GPU's limit \(limit)")
    }
    static func framebufferIncomplete(_ status: UInt32, width: Int, height: Int) -> GlsliceError {
        GlsliceError(.internal, "glCheckFramebufferStatus: incomplete (0x\(String(status, radix: 16))) at \(width)x\(height)")
    }
    static func gpuThreadEndedEarly() -> GlsliceError {
        GlsliceError(.internal, "the GPU thread ended before opening a context")
    }
    static func noAnswer() -> GlsliceError { GlsliceError(.internal, "the GPU thread gave no answer") }

    // MARK: Libraries

    /// libwebp or zlib refusing pixels glslice gave it (`what`: "libwebp could not encode the image").
    static func zlibFailed(status: Int32) -> GlsliceError {
        GlsliceError(.internal, "zlib failed to compress a piece (error \(status))")
    }
    static func webPEncodeFailed(status: Int32, file: String) -> GlsliceError {
        GlsliceError(.internal, file: file, "libwebp could not encode the image (error \(status))")
    }
    static func noPixels(from library: String) -> GlsliceError {
        GlsliceError(.internal, "\(library) returned no pixels")
    }

    // MARK: Writers used out of order

    static func finishedTwice(_ name: String) -> GlsliceError {
        GlsliceError(.internal, file: name, "finish called twice")
    }
    static func writeAfterFinish(_ name: String) -> GlsliceError {
        GlsliceError(.internal, file: name, "write after finish")
    }
    static func noEncoderOpen(_ name: String) -> GlsliceError {
        GlsliceError(.internal, file: name, "no encoder open")
    }
    static func rowsMissing(_ name: String, written: Int, height: Int) -> GlsliceError {
        GlsliceError(.internal, file: name, "only \(written) of \(height) rows were written")
    }
    static func tooManyRows(_ name: String, height: Int) -> GlsliceError {
        GlsliceError(.internal, file: name, "more than the image's \(height) rows were written")
    }

    // MARK: Assets

    static func smallerRendersDifferently(_ file: String, modes: [String]) -> GlsliceError {
        GlsliceError(.internal, file: file,
                     "the smaller source would render differently in \(modes.joined(separator: ", ")); nothing written")
    }
}
