import CEGL
import Foundation

/// A headless EGL display with an OpenGL ES 3 context current on one thread:
/// ES 3.1 or later where the driver offers it (compute shaders, which GPU
/// encoding needs), else ES 3.0, which draws but leaves encoding to the CPU.
///
/// No window system: EGL devices (NVIDIA servers), Mesa's surfaceless platform
/// (llvmpipe on CPU-only machines and CI), or the default display, in that order.
///
/// Not `Sendable`: a context is current on the thread that made it, and every
/// call into it comes from there.
package final class GPUContext {
    /// How the display was obtained, for `doctor` and error messages.
    let displayDescription: String
    let vendor: String
    package let renderer: String
    package let version: String
    package let limits: GLLimits
    /// The context is ES 3.1 or later: compute shaders and shader storage
    /// buffers, so the GPU can encode what it draws (`GPUEncoder`).
    let hasCompute: Bool
    /// True for Mesa's software rasterisers (llvmpipe, softpipe, swrast).
    var isSoftware: Bool { ["llvmpipe", "softpipe", "swrast"].contains { renderer.lowercased().contains($0) } }

    let display: EGLDisplay
    private let handles: ContextHandles
    var context: EGLContext? { handles.context }
    var surface: EGLSurface? { handles.surface }
    /// This context's hold on its display (tests see it given back).
    var displayHold: Int { handles.hold }

    package struct GLLimits: Sendable {
        var maxTextureSize: Int
        var maxRenderbufferSize: Int
        var maxViewport: (width: Int, height: Int)

        /// nil when a source of `width × height` can be drawn here; else the
        /// refusal naming the limit. Known when the context opens, so a job is
        /// sent to the side that can draw it before any GL call: hybrid gives
        /// such a job to the CPU, and `--backend gpu` refuses it with these words.
        package func refusal(sourceWidth width: Int, sourceHeight height: Int) -> GlsliceError? {
            max(width, height) <= maxTextureSize ? nil
                : InputErrors.sourceOverTextureLimit(width: width, height: height, limit: maxTextureSize)
        }
    }

    /// A display that was tried and what happened.
    struct Attempt: Sendable {
        var candidate: String
        var failure: String?
    }

    /// Opens the first display that gives an ES 3 context: an explicit device
    /// (`device`; the CLI fills it from `--gpu` or `GLSLICE_GPU`), else hardware devices, then software
    /// ones, then the surfaceless platform, then the default display.
    /// Throws `.unavailable` naming every attempt when none works.
    package static func make(device explicit: Int? = nil) throws -> GPUContext {
        try AddressSpaceGuard.check()
        var attempts: [Attempt] = []
        if let context = make(device: explicit, attempts: &attempts) { return context }
        throw UnavailableErrors.noContext(attempts: attempts.map { ($0.candidate, $0.failure) })
    }

    /// Like `make(device:)`, recording every attempt.
    static func make(device explicit: Int?, attempts: inout [Attempt]) -> GPUContext? {
        let explicit = explicit
        let extensions = clientExtensions
        var candidates: [(String, () -> EGLDisplay?)] = []
        let devices = devices()
        let hasDevicePlatform = extensions.contains("EGL_EXT_platform_device") && gs_egl_has_platform_display() != 0
        if let explicit {
            guard let device = devices.first(where: { $0.index == explicit }), hasDevicePlatform else {
                attempts.append(Attempt(candidate: "device \(explicit)",
                                        failure: "no such EGL device (\(devices.count) found; see glslice doctor)"))
                return nil
            }
            candidates.append((describe(device), { gs_egl_get_platform_display(EGLenum(EGL_PLATFORM_DEVICE_EXT), device.handle) }))
        } else {
            if hasDevicePlatform {
                // Hardware first, Mesa's software device last: device 0 is not always the GPU.
                for device in devices.sorted(by: { !$0.isSoftware && $1.isSoftware }) {
                    candidates.append((describe(device), { gs_egl_get_platform_display(EGLenum(EGL_PLATFORM_DEVICE_EXT), device.handle) }))
                }
            }
            if extensions.contains("EGL_MESA_platform_surfaceless") && gs_egl_has_platform_display() != 0 {
                candidates.append(("surfaceless platform", { gs_egl_get_platform_display(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil) }))
            }
            candidates.append(("default display", { gs_egl_default_display() }))
        }
        for (name, open) in candidates {
            do {
                guard let display = open(), display != gs_egl_no_display() else {
                    throw UnavailableErrors.noDisplay(GLCheck.eglErrorName(eglGetError()))
                }
                let context = try GPUContext(display: display, description: name)
                attempts.append(Attempt(candidate: name, failure: nil))
                return context
            } catch {
                attempts.append(Attempt(candidate: name, failure: "\(error)"))
            }
        }
        return nil
    }

    private init(display: EGLDisplay, description: String) throws {
        let version = try EGLDisplayRegistry.acquire(display)
        var handles = ContextHandles(display: display, hold: version.hold)
        do {
            try GLCheck.egl("eglBindAPI", eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE)
            let features = DisplayFeatures(display)
            let config = features.needsConfig ? try Self.chooseConfig(display) : gs_egl_no_config()
            try handles.createContext(config: config, attempts: [(3, 1), (3, 0)])
            if !features.surfaceless { try handles.createPbuffer(config: config) }
            try handles.makeCurrent()
            let info = try GLInfo.query()
            guard info.version.hasPrefix("OpenGL ES 3") else {
                throw UnavailableErrors.notES3(info.version)
            }
            self.display = display
            self.handles = handles
            displayDescription = description + " (EGL \(version.major).\(version.minor))"
            vendor = info.vendor
            renderer = info.renderer
            self.version = info.version
            limits = info.limits
            hasCompute = info.hasCompute
        } catch {
            handles.release()
            throw error
        }
    }

    /// What the display offers that spares a config or a surface.
    private struct DisplayFeatures {
        var noConfig: Bool
        var surfaceless: Bool
        var needsConfig: Bool { !noConfig || !surfaceless }

        init(_ display: EGLDisplay) {
            let extensions = eglQueryString(display, EGL_EXTENSIONS).flatMap { String(validatingCString: $0) } ?? ""
            noConfig = extensions.contains("EGL_KHR_no_config_context")
            surfaceless = extensions.contains("EGL_KHR_surfaceless_context")
        }
    }

    private static func chooseConfig(_ display: EGLDisplay) throws -> EGLConfig? {
        let attributes: [EGLint] = [EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                                    EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE]
        var count: EGLint = 0
        var chosen: EGLConfig?
        try GLCheck.egl("eglChooseConfig", eglChooseConfig(display, attributes, &chosen, 1, &count) == EGL_TRUE)
        guard count > 0, let chosen else { throw UnavailableErrors.noConfig() }
        return chosen
    }

    /// The strings and limits of the current context.
    private struct GLInfo {
        var vendor, renderer, version: String
        var limits: GLLimits
        var hasCompute: Bool

        static func query() throws -> GLInfo {
            func string(_ name: Int32) -> String {
                glGetString(GLenum(name)).flatMap {
                    String(validatingCString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
                } ?? "?"
            }
            func integer(_ name: Int32) -> Int {
                var value: GLint = 0
                glGetIntegerv(GLenum(name), &value)
                return Int(value)
            }
            var viewport: [GLint] = [0, 0]
            glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &viewport)
            let info = GLInfo(vendor: string(GL_VENDOR), renderer: string(GL_RENDERER), version: string(GL_VERSION),
                              limits: GLLimits(maxTextureSize: integer(GL_MAX_TEXTURE_SIZE),
                                               maxRenderbufferSize: integer(GL_MAX_RENDERBUFFER_SIZE),
                                               maxViewport: (Int(viewport[0]), Int(viewport[1]))),
                              hasCompute: integer(GL_MAJOR_VERSION) * 10 + integer(GL_MINOR_VERSION) >= 31)
            try GLCheck.gl("glGetString/glGetIntegerv")
            return info
        }
    }

    /// Makes this context current on the calling thread.
    func makeCurrent() throws {
        if eglGetCurrentContext() == context { return }
        try handles.makeCurrent(kind: .internal)
    }

    deinit { handles.release() }
}

/// The EGL objects one context owns, and the one place that lets them go.
struct ContextHandles {
    let display: EGLDisplay
    /// This context's hold on the display (`EGLDisplayRegistry`).
    let hold: Int
    var context: EGLContext?
    var surface: EGLSurface?

    init(display: EGLDisplay, hold: Int) {
        self.display = display
        self.hold = hold
    }

    /// The first of `attempts` (major, minor) the display gives; the error of the last when none.
    mutating func createContext(config: EGLConfig?, attempts: [(major: EGLint, minor: EGLint)]) throws {
        var error = EGLint(EGL_SUCCESS)
        for (major, minor) in attempts {
            let attributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor, EGL_NONE]
            if let made = eglCreateContext(display, config, gs_egl_no_context(), attributes), made != gs_egl_no_context() {
                context = made
                return
            }
            error = eglGetError()
        }
        throw UnavailableErrors.contextCreationFailed(GLCheck.eglErrorName(error))
    }

    mutating func createPbuffer(config: EGLConfig?) throws {
        let attributes: [EGLint] = [EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE]
        guard let made = eglCreatePbufferSurface(display, config, attributes), made != gs_egl_no_surface() else {
            throw UnavailableErrors.eglFailed("eglCreatePbufferSurface", GLCheck.eglErrorName(eglGetError()))
        }
        surface = made
    }

    func makeCurrent(kind: GlsliceError.Kind = .unavailable) throws {
        let drawSurface = surface ?? gs_egl_no_surface()
        try GLCheck.egl("eglMakeCurrent", eglMakeCurrent(display, drawSurface, drawSurface, context) == EGL_TRUE, kind: kind)
    }

    /// Unbinds the context only where it is current (this thread), destroys
    /// what this context made, and gives its display reference back.
    func release() {
        if let context, eglGetCurrentContext() == context {
            eglMakeCurrent(display, gs_egl_no_surface(), gs_egl_no_surface(), gs_egl_no_context())
        }
        if let surface { eglDestroySurface(display, surface) }
        if let context { eglDestroyContext(display, context) }
        EGLDisplayRegistry.release(display, hold: hold)
    }
}
