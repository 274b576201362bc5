import CEGL
import Shaders

/// The GPU side of the backend: OpenGL ES 3 through a headless EGL context.
///
/// Each source cell becomes its own texture, so sampling never reads a
/// neighbouring segment; each cell is one quad. Where each
/// pixel samples is the plan's (`AxisTaps`, uploaded as an integer texture);
/// the fragment shader fetches those texels and blends them with the CPU's
/// integer arithmetic, so both backends write the same bytes (docs/RENDERING.md §5).
/// Not `Sendable`: one session, with its context, per GL thread.
package final class GPUSession {
    package let context: GPUContext
    /// The GPU memory held, and the budget it is held to.
    package let memory: GPUMemory
    private let program: GLuint
    private let vertexArray: GLuint
    private let vertexBuffer: GLuint
    private let framebuffer: GLuint
    private var renderbuffer: GLuint = 0
    private var renderbufferSize = (width: 0, height: 0)
    private let uniforms: Uniforms

    /// The widest and tallest framebuffer one draw may use.
    var maxTarget: (width: Int, height: Int) {
        (min(context.limits.maxRenderbufferSize, context.limits.maxViewport.width),
         min(context.limits.maxRenderbufferSize, context.limits.maxViewport.height))
    }

    /// Whether glslice's deflate PNGs are encoded with compute passes here (issue 43):
    /// decided once, as the session is made, by `GPUContext.encodesOnGPU` (the one rule
    /// doctor reports too): on hardware GPUs only, since llvmpipe's compute is slower than
    /// the CPU's own encoder (docs/BENCHMARKS-LOG.md), unless forced (`GLSLICE_GPU_ENCODE`).
    /// Tests set it.
    var gpuEncoding: Bool

    /// The encoder's self-check, GPU seconds over CPU seconds (nil until it ran).
    var selfCheckRatio: Double?

    /// The compute encoder (`GPUSession+Encoding.swift`): made on first use and
    /// checked against the CPU's encoder (`GPUEncoder.selfCheck`); a failure where the
    /// context has no ES 3.1 or its files differ, and every output is encoded on the CPU.
    lazy var encoder: Result<GPUEncoder, GlsliceError> = Result {
        let encoder = try GPUEncoder(context: context, memory: memory)
        selfCheckRatio = try encoder.selfCheck()
        try encoder.shrink()
        return encoder
    }.mapError { GlsliceError.from($0) }

    /// Overrides `maxTarget` (smaller only), so parity and tests can force column
    /// chunks cheaply. Internal: a test hook, not part of the API.
    var targetLimitOverride: (width: Int, height: Int)?

    /// Makes an encoding call of more outputs than this fail as a GL
    /// out-of-memory error would, so tests can show that such a failure is the
    /// call's, not its outputs'. Internal: a test hook, not part of the API.
    var failEncodingCallsOver: Int?

    struct Uniforms {
        var viewportSize, cell, taps: GLint
    }

    /// Per-vertex attributes: position, the job's rows of the taps texture, and
    /// whether the cell is one colour (see nine_slice.vert).
    static let attributes: [(name: String, size: Int)] = [("position", 2), ("tapRowsIn", 2), ("filledIn", 1)]
    /// The taps texture (texture unit 1), re-specified for each draw.
    private let tapsTexture: GLuint
    /// Rows one draw's taps texture may have: two per job drawn.
    var maxTapRows: Int { min(context.limits.maxTextureSize, 8192) }
    static let floatsPerVertex = attributes.reduce(0) { $0 + $1.size }

    /// - Parameter gpuEncoding: forces GPU encoding on or off (nil: `encodesOnGPU`'s default).
    init(context: GPUContext, memory: GPUMemory = GPUMemory(), gpuEncoding forced: Bool? = nil) throws {
        self.context = context
        self.memory = memory
        gpuEncoding = context.encodesOnGPU(forced: forced)
        try context.makeCurrent()
        let program = try ShaderProgram.link(vertex: ShaderSource.vertex, fragment: ShaderSource.fragment)
        func location(_ name: String) throws -> GLint {
            let value = glGetUniformLocation(program, name)
            guard value >= 0 else { throw InternalErrors.shaderVariableMissing("glGetUniformLocation(\(name))") }
            return value
        }
        let uniforms = Uniforms(viewportSize: try location("viewportSize"), cell: try location("cell"), taps: try location("taps"))
        var attributeLocations: [GLuint] = []
        for attribute in GPUSession.attributes {
            let value = glGetAttribLocation(program, attribute.name)
            guard value >= 0 else { throw InternalErrors.shaderVariableMissing("glGetAttribLocation(\(attribute.name))") }
            attributeLocations.append(GLuint(value))
        }
        var objects: [GLuint] = [0, 0, 0, 0]
        try GLCheck.gl("glGenVertexArrays") { glGenVertexArrays(1, &objects[0]) }
        try GLCheck.gl("glGenBuffers") { glGenBuffers(1, &objects[1]) }
        try GLCheck.gl("glGenFramebuffers") { glGenFramebuffers(1, &objects[2]) }
        try GLCheck.gl("glGenTextures") { glGenTextures(1, &objects[3]) }
        tapsTexture = objects[3]
        self.program = program
        self.uniforms = uniforms
        vertexArray = objects[0]
        vertexBuffer = objects[1]
        framebuffer = objects[2]
        try GLCheck.gl("glBindVertexArray") { glBindVertexArray(vertexArray) }
        try GLCheck.gl("glBindBuffer") { glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer) }
        var byteOffset = 0
        let stride = GLsizei(GPUSession.floatsPerVertex * MemoryLayout<Float>.size)
        for (attribute, location) in zip(GPUSession.attributes, attributeLocations) {
            try GLCheck.gl("glEnableVertexAttribArray(\(attribute.name))") { glEnableVertexAttribArray(location) }
            try GLCheck.gl("glVertexAttribPointer(\(attribute.name))") {
                glVertexAttribPointer(location, GLint(attribute.size), GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                                      UnsafeRawPointer(bitPattern: byteOffset))
            }
            byteOffset += attribute.size * MemoryLayout<Float>.size
        }
        try GLCheck.gl("glUseProgram") { glUseProgram(program) }
        try GLCheck.gl("glUniform1i(cell)") { glUniform1i(uniforms.cell, 0) }
        try GLCheck.gl("glUniform1i(taps)") { glUniform1i(uniforms.taps, 1) }
        try GLCheck.gl("glActiveTexture(taps)") { glActiveTexture(GLenum(GL_TEXTURE1)) }
        try GLCheck.gl("glBindTexture(taps)") { glBindTexture(GLenum(GL_TEXTURE_2D), tapsTexture) }
        try GLCheck.gl("glTexParameteri(taps)") {
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), 0)
        }
        try GLCheck.gl("glActiveTexture(cell)") { glActiveTexture(GLenum(GL_TEXTURE0)) }
        try GLCheck.gl("glDisable(GL_BLEND)") { glDisable(GLenum(GL_BLEND)) }
        try GLCheck.gl("glPixelStorei(GL_PACK_ALIGNMENT)") { glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1) }
        try GLCheck.gl("glPixelStorei(GL_UNPACK_ALIGNMENT)") { glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1) }
    }

    deinit {
        if (try? context.makeCurrent()) != nil {
            var objects = [vertexBuffer]
            glDeleteBuffers(1, &objects)
            var arrays = [vertexArray]
            glDeleteVertexArrays(1, &arrays)
            var framebuffers = [framebuffer]
            glDeleteFramebuffers(1, &framebuffers)
            var taps = [tapsTexture]
            glDeleteTextures(1, &taps)
            if renderbuffer != 0 { glDeleteRenderbuffers(1, &renderbuffer) }
            let cached = textureCache.names
            if !cached.isEmpty { glDeleteTextures(GLsizei(cached.count), cached) }
            glDeleteProgram(program)
        }
        memory.set(.framebuffer, 0)
        memory.add(.textures, -textureCache.bytes)
        memory.set(.taps, 0)
    }

    /// Uploads the cells of `source` that `plan` draws. With a `sourceKey`
    /// (a batch's content hash), cell textures are shared with later jobs of the
    /// same source through a cache that `trimTextureCache` bounds.
    func upload(_ plan: Plan, source: PremultipliedImage, sourceKey: SourceKey? = nil, taps: PlanTaps? = nil) throws -> GPUDrawer {
        try context.makeCurrent()
        if let refusal = context.limits.refusal(sourceWidth: source.width, sourceHeight: source.height) { throw refusal }
        return try GPUDrawer(session: self, plan: plan, source: source, sourceKey: sourceKey, taps: taps)
    }

    /// Cell textures shared by the jobs of one source (`SourceKey`), bounded in bytes.
    let textureCache = TextureCache()


    var effectiveTarget: (width: Int, height: Int) {
        let limit = maxTarget
        guard let override = targetLimitOverride else { return limit }
        return (max(1, min(limit.width, override.width)), max(1, min(limit.height, override.height)))
    }

    /// Clears a `width × height` framebuffer to transparent and draws `list` into it.
    func draw(_ list: QuadList, width: Int, height: Int) throws {
        // The encoder's compute passes use programs of their own.
        try GLCheck.gl("glUseProgram") { glUseProgram(program) }
        try ensureFramebuffer(width: width, height: height)
        try GLCheck.gl("glViewport") { glViewport(0, 0, GLsizei(width), GLsizei(height)) }
        try GLCheck.gl("glClear") {
            glClearColor(0, 0, 0, 0)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        try GLCheck.gl("glUniform2f(viewportSize)") { glUniform2f(uniforms.viewportSize, Float(width), Float(height)) }
        if list.runs.isEmpty { return }
        guard list.tapWidth <= context.limits.maxTextureSize, list.tapRows.count <= maxTapRows else {
            throw InternalErrors.tapsOverGPULimit(width: list.tapWidth, rows: list.tapRows.count, limit: "\(context.limits.maxTextureSize)")
        }
        let taps = list.tapTexels()
        memory.set(.taps, taps.count * 4)
        try GLCheck.gl("glActiveTexture(taps)") { glActiveTexture(GLenum(GL_TEXTURE1)) }
        try taps.withUnsafeBytes { raw in
            try GLCheck.gl("glTexImage2D(taps)") {
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32UI, GLsizei(max(1, list.tapWidth)), GLsizei(list.tapRows.count), 0,
                             GLenum(GL_RGBA_INTEGER), GLenum(GL_UNSIGNED_INT), raw.baseAddress)
            }
        }
        try GLCheck.gl("glActiveTexture(cell)") { glActiveTexture(GLenum(GL_TEXTURE0)) }
        try list.vertices.withUnsafeBytes { raw in
            try GLCheck.gl("glBufferData") {
                glBufferData(GLenum(GL_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
            }
        }
        for run in list.runs {
            try GLCheck.gl("glBindTexture") { glBindTexture(GLenum(GL_TEXTURE_2D), run.texture) }
            try GLCheck.gl("glDrawArrays", .draw) { glDrawArrays(GLenum(GL_TRIANGLES), GLint(run.firstQuad * 6), GLsizei(run.quads * 6)) }
        }
    }

    /// Keeps one renderbuffer of at least `width × height`, sized for the draw at
    /// hand: it grows to the union of its draws only while that stays small (atlases
    /// of varying shapes then share one), and is made anew, smaller, after a large
    /// draw. (Growing to the union of `40000x1` and `1x40000` held 1 GiB.)
    func ensureFramebuffer(width: Int, height: Int) throws {
        try GLCheck.gl("glBindFramebuffer") { glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer) }
        let current = renderbufferSize
        let fits = current.width >= width && current.height >= height
        let needed = width * height * 4
        if renderbuffer != 0 && fits && GPUMemory.keeps(capacity: current.width * current.height * 4, needed: needed) { return }
        if renderbuffer == 0 {
            try GLCheck.gl("glGenRenderbuffers") { glGenRenderbuffers(1, &renderbuffer) }
        }
        let union = (max(width, current.width), max(height, current.height))
        let size = union.0 * union.1 * 4 <= max(4 << 20, 2 * needed) ? union : (width, height)
        try GLCheck.gl("glBindRenderbuffer") { glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer) }
        try GLCheck.gl("glRenderbufferStorage") {
            glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(size.0), GLsizei(size.1))
        }
        try GLCheck.gl("glFramebufferRenderbuffer") {
            glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
        }
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw InternalErrors.framebufferIncomplete(UInt32(status), width: Int(size.0), height: Int(size.1))
        }
        renderbufferSize = size
        memory.set(.framebuffer, size.0 * size.1 * 4)
    }
}

extension GPUSession {
    /// The one readback: the framebuffer's bottom-left `width × height` pixels
    /// into `destination`, rows `rowLength` pixels apart. A nil destination
    /// reads into the bound pixel-pack buffer (offset 0). Into CPU memory the call waits for
    /// the draws before it (a wait in `GLTally`); into a pack buffer it returns at once.
    func readPixels(width: Int, height: Int, rowLength: Int, into destination: UnsafeMutableRawPointer?, intoPackBuffer: Bool = false) throws {
        try GLCheck.gl("glPixelStorei(GL_PACK_ROW_LENGTH)") { glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), GLint(rowLength)) }
        try GLCheck.gl("glReadPixels", intoPackBuffer ? .call : .wait) {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), destination)
        }
    }
}
