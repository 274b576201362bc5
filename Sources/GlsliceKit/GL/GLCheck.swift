import CEGL

/// Every EGL and GL call goes through these so a failure names the call and the code.
enum GLCheck {
    /// Throws when `glGetError` reports anything after `call`.
    /// `call` is worded only when it failed: a GPU encode call makes about a hundred checks,
    /// and their interpolated names were part of the GL thread's own work (issue 52).
    static func gl(_ call: @autoclosure () -> String) throws {
        let code = glGetError()
        guard code == GLenum(GL_NO_ERROR) else {
            // Drain any further queued errors so the next check is about the next call.
            while glGetError() != GLenum(GL_NO_ERROR) {}
            throw InternalErrors.glFailed(call(), glErrorName(code))
        }
    }

    /// Runs a GL call and checks it, timed in this thread's `GLTally` as a call of `kind`.
    @discardableResult
    static func gl<T>(_ call: @autoclosure () -> String, _ kind: GLTally.Kind = .call, _ body: () -> T) throws -> T {
        try GLTally.timing(kind) {
            let result = body()
            try gl(call())
            return result
        }
    }

    /// Throws when an EGL call returned failure, with `eglGetError`'s code.
    static func egl(_ call: String, _ succeeded: Bool, kind: GlsliceError.Kind = .unavailable) throws {
        guard succeeded else {
            throw UnavailableErrors.eglFailed(call, eglErrorName(eglGetError()), kind: kind)
        }
    }

    static func glErrorName(_ code: GLenum) -> String {
        let names: [Int32: String] = [
            GL_INVALID_ENUM: "GL_INVALID_ENUM", GL_INVALID_VALUE: "GL_INVALID_VALUE",
            GL_INVALID_OPERATION: "GL_INVALID_OPERATION", GL_OUT_OF_MEMORY: "GL_OUT_OF_MEMORY",
            GL_INVALID_FRAMEBUFFER_OPERATION: "GL_INVALID_FRAMEBUFFER_OPERATION",
        ]
        return names[Int32(code)] ?? "GL error 0x" + String(code, radix: 16)
    }

    static func eglErrorName(_ code: EGLint) -> String {
        let names: [Int32: String] = [
            EGL_SUCCESS: "EGL_SUCCESS", EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED", EGL_BAD_ACCESS: "EGL_BAD_ACCESS",
            EGL_BAD_ALLOC: "EGL_BAD_ALLOC", EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE", EGL_BAD_CONFIG: "EGL_BAD_CONFIG",
            EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT", EGL_BAD_CURRENT_SURFACE: "EGL_BAD_CURRENT_SURFACE",
            EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY", EGL_BAD_MATCH: "EGL_BAD_MATCH",
            EGL_BAD_NATIVE_PIXMAP: "EGL_BAD_NATIVE_PIXMAP", EGL_BAD_NATIVE_WINDOW: "EGL_BAD_NATIVE_WINDOW",
            EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER", EGL_BAD_SURFACE: "EGL_BAD_SURFACE", EGL_CONTEXT_LOST: "EGL_CONTEXT_LOST",
        ]
        return names[code] ?? "EGL error 0x" + String(code, radix: 16)
    }
}
