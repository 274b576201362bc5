import CEGL
import Shaders

/// The GPU backend: OpenGL ES 3 through a headless EGL context.
///
/// Each source cell becomes its own texture with `GL_REPEAT` or
/// `GL_CLAMP_TO_EDGE` per axis, so sampling never reads a neighbouring
/// segment; each piece of each cell is one quad whose fragment shader
/// evaluates the plan's per-axis mapping. The texture unit fetches texel
/// centres and the shader blends `linear` with float weights (hardware
/// bilinear weights have 8 bits and miss SPEC §5's tolerance). Not thread-safe: one renderer
/// (and context) per rendering thread.
public final class GPURenderer: @unchecked Sendable {
    public let context: GPUContext
    private let program: GLuint
    private let vertexArray: GLuint
    private let vertexBuffer: GLuint
    private let framebuffer: GLuint
    private var renderbuffer: GLuint = 0
    private var renderbufferSize = (width: 0, height: 0)
    private let uniforms: Uniforms

    /// The widest and tallest framebuffer one draw may use.
    public var maxTarget: (width: Int, height: Int) {
        (min(context.limits.maxRenderbufferSize, context.limits.maxViewport.width),
         min(context.limits.maxRenderbufferSize, context.limits.maxViewport.height))
    }

    /// Overrides `maxTarget` (smaller only), so tests can force column chunks cheaply.
    public var targetLimitOverride: (width: Int, height: Int)?

    struct Uniforms {
        var viewportSize, cell, cellSize, origin, num, den, wrapAxis, stripOffset, linearFilter, position: GLint
    }

    public init(context: GPUContext) throws {
        self.context = context
        try context.makeCurrent()
        let program = try GPURenderer.link(vertex: ShaderSource.vertex, fragment: ShaderSource.fragment)
        func location(_ name: String) throws -> GLint {
            let value = glGetUniformLocation(program, name)
            guard value >= 0 else { throw GlsliceError(.internal, "glGetUniformLocation(\(name)) found nothing") }
            return value
        }
        let position = glGetAttribLocation(program, "position")
        guard position >= 0 else { throw GlsliceError(.internal, "glGetAttribLocation(position) found nothing") }
        let uniforms = Uniforms(viewportSize: try location("viewportSize"), cell: try location("cell"),
                                cellSize: try location("cellSize"), origin: try location("origin"),
                                num: try location("num"), den: try location("den"), wrapAxis: try location("wrapAxis"),
                                stripOffset: try location("stripOffset"), linearFilter: try location("linearFilter"),
                                position: position)
        var objects: [GLuint] = [0, 0, 0]
        try GLCheck.gl("glGenVertexArrays") { glGenVertexArrays(1, &objects[0]) }
        try GLCheck.gl("glGenBuffers") { glGenBuffers(1, &objects[1]) }
        try GLCheck.gl("glGenFramebuffers") { glGenFramebuffers(1, &objects[2]) }
        self.program = program
        self.uniforms = uniforms
        vertexArray = objects[0]
        vertexBuffer = objects[1]
        framebuffer = objects[2]
        try GLCheck.gl("glBindVertexArray") { glBindVertexArray(vertexArray) }
        try GLCheck.gl("glBindBuffer") { glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer) }
        try GLCheck.gl("glEnableVertexAttribArray") { glEnableVertexAttribArray(GLuint(position)) }
        try GLCheck.gl("glVertexAttribPointer") {
            glVertexAttribPointer(GLuint(position), 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        }
        try GLCheck.gl("glUseProgram") { glUseProgram(program) }
        try GLCheck.gl("glUniform1i(cell)") { glUniform1i(uniforms.cell, 0) }
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
            if renderbuffer != 0 { glDeleteRenderbuffers(1, &renderbuffer) }
            glDeleteProgram(program)
        }
    }

    /// Uploads the cells of `source` that `plan` draws.
    public func prepare(_ plan: RenderPlan, source: PremultipliedImage) throws -> Prepared {
        try context.makeCurrent()
        let largest = max(source.width, source.height)
        guard largest <= context.limits.maxTextureSize else {
            throw GlsliceError(.badInput, "source is \(source.width)x\(source.height) px, above this GPU's texture limit of \(context.limits.maxTextureSize)")
        }
        return try Prepared(renderer: self, plan: plan, source: source)
    }

    /// A plan with its cell textures uploaded, ready to render any band of rows.
    public final class Prepared: BandRenderer, @unchecked Sendable {
        let renderer: GPURenderer
        let plan: RenderPlan
        let textures: [GLuint]
        /// Per cell: the texture index and the pieces to draw.
        let draws: [(texture: Int, cell: CellPlan)]

        init(renderer: GPURenderer, plan: RenderPlan, source: PremultipliedImage) throws {
            self.renderer = renderer
            self.plan = plan
            var draws: [(Int, CellPlan)] = []
            var textures: [GLuint] = []
            do {
                try Prepared.upload(plan: plan, source: source, draws: &draws, textures: &textures)
            } catch {
                if !textures.isEmpty { glDeleteTextures(GLsizei(textures.count), textures) }
                throw error
            }
            self.textures = textures
            self.draws = draws
        }

        private static func upload(plan: RenderPlan, source: PremultipliedImage,
                                   draws: inout [(Int, CellPlan)], textures: inout [GLuint]) throws {
            try source.rgba.pixels.withUnsafeBytes { raw in
                try GLCheck.gl("glPixelStorei(GL_UNPACK_ROW_LENGTH)") {
                    glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(source.width))
                }
                for cell in plan.cells {
                    var texture: GLuint = 0
                    try GLCheck.gl("glGenTextures") { glGenTextures(1, &texture) }
                    textures.append(texture)
                    let target = GLenum(GL_TEXTURE_2D)
                    try GLCheck.gl("glBindTexture") { glBindTexture(target, texture) }
                    // Texel centres only: the shader blends for `linear` (see nine_slice.frag).
                    let filter = GLint(GL_NEAREST)
                    func wrap(_ span: AxisSpan) -> GLint {
                        GLint(span.pieces.first?.addressing == .wrap ? GL_REPEAT : GL_CLAMP_TO_EDGE)
                    }
                    try GLCheck.gl("glTexParameteri") {
                        glTexParameteri(target, GLenum(GL_TEXTURE_MIN_FILTER), filter)
                        glTexParameteri(target, GLenum(GL_TEXTURE_MAG_FILTER), filter)
                        glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_S), wrap(cell.x))
                        glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_T), wrap(cell.y))
                        glTexParameteri(target, GLenum(GL_TEXTURE_MAX_LEVEL), 0)
                    }
                    let rect = cell.sourceRect
                    try GLCheck.gl("glPixelStorei(GL_UNPACK_SKIP_*)") {
                        glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), GLint(rect.x.lowerBound))
                        glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), GLint(rect.y.lowerBound))
                    }
                    try GLCheck.gl("glTexImage2D") {
                        glTexImage2D(target, 0, GL_RGBA8, GLsizei(rect.x.count), GLsizei(rect.y.count), 0,
                                     GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), raw.baseAddress)
                    }
                    draws.append((textures.count - 1, cell))
                }
                try GLCheck.gl("glPixelStorei(reset unpack)") {
                    glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
                    glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), 0)
                    glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), 0)
                }
            }
        }

        deinit {
            if !textures.isEmpty, (try? renderer.context.makeCurrent()) != nil {
                glDeleteTextures(GLsizei(textures.count), textures)
            }
        }

        /// Rows per band that fit the framebuffer limits.
        public var maxBandRows: Int { renderer.effectiveTarget.height }

        public func renderRows(_ band: Range<Int>, into output: UnsafeMutablePointer<UInt8>) throws {
            try renderer.context.makeCurrent()
            let width = plan.size.width
            let target = renderer.effectiveTarget
            guard band.count <= target.height else {
                throw GlsliceError(.internal, "band of \(band.count) rows exceeds the framebuffer limit \(target.height)")
            }
            var x0 = 0
            while x0 < width {
                let chunk = x0..<min(width, x0 + target.width)
                var quads = QuadList()
                quads.append(self, columns: chunk, rows: band, at: (0, 0))
                try renderer.draw(quads, width: chunk.count, height: band.count)
                try GLCheck.gl("glPixelStorei(GL_PACK_ROW_LENGTH)") { glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), GLint(width)) }
                try GLCheck.gl("glReadPixels") {
                    glReadPixels(0, 0, GLsizei(chunk.count), GLsizei(band.count), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                                 output + chunk.lowerBound * 4)
                }
                x0 = chunk.upperBound
            }
        }
    }

    var effectiveTarget: (width: Int, height: Int) {
        let limit = maxTarget
        guard let override = targetLimitOverride else { return limit }
        return (max(1, min(limit.width, override.width)), max(1, min(limit.height, override.height)))
    }

    /// Quads to draw into the framebuffer: one per (x piece, y piece) of each
    /// cell, each with the uniforms that map its pixels back to its job.
    struct QuadList {
        struct Quad {
            var texture: GLuint
            var cellSize: (Float, Float)
            var x: AxisPiece
            var y: AxisPiece
            /// Output pixel (of its job) at the framebuffer's (0, 0).
            var offset: (Float, Float)
            var linear: Bool
        }
        var quads: [Quad] = []
        var vertices: [Float] = []

        /// Adds the part of `job`'s output in `columns × rows`, placed with that
        /// rectangle's corner at framebuffer pixel `at`.
        mutating func append(_ job: Prepared, columns: Range<Int>, rows: Range<Int>, at: (x: Int, y: Int)) {
            let offset = (Float(columns.lowerBound - at.x), Float(rows.lowerBound - at.y))
            for (texture, cell) in job.draws {
                for yPiece in cell.y.pieces {
                    let y = yPiece.destination.clamped(to: rows)
                    if y.isEmpty { continue }
                    for xPiece in cell.x.pieces {
                        let x = xPiece.destination.clamped(to: columns)
                        if x.isEmpty { continue }
                        let x0 = Float(x.lowerBound) - offset.0, x1 = Float(x.upperBound) - offset.0
                        let y0 = Float(y.lowerBound) - offset.1, y1 = Float(y.upperBound) - offset.1
                        vertices += [x0, y0, x1, y0, x0, y1, x0, y1, x1, y0, x1, y1]
                        quads.append(Quad(texture: job.textures[texture],
                                          cellSize: (Float(cell.x.segment.length), Float(cell.y.segment.length)),
                                          x: xPiece, y: yPiece, offset: offset, linear: job.plan.filter == .linear))
                    }
                }
            }
        }
    }

    /// Clears a `width × height` framebuffer to transparent and draws `list` into it.
    func draw(_ list: QuadList, width: Int, height: Int) throws {
        try ensureFramebuffer(width: width, height: height)
        try GLCheck.gl("glViewport") { glViewport(0, 0, GLsizei(width), GLsizei(height)) }
        try GLCheck.gl("glClear") {
            glClearColor(0, 0, 0, 0)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        try GLCheck.gl("glUniform2f(viewportSize)") { glUniform2f(uniforms.viewportSize, Float(width), Float(height)) }
        if list.quads.isEmpty { return }
        try list.vertices.withUnsafeBytes { raw in
            try GLCheck.gl("glBufferData") {
                glBufferData(GLenum(GL_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
            }
        }
        var bound: GLuint = 0
        for (i, quad) in list.quads.enumerated() {
            if quad.texture != bound {
                try GLCheck.gl("glBindTexture") { glBindTexture(GLenum(GL_TEXTURE_2D), quad.texture) }
                bound = quad.texture
            }
            try GLCheck.gl("glUniform(piece)") {
                glUniform2f(uniforms.stripOffset, quad.offset.0, quad.offset.1)
                glUniform1i(uniforms.linearFilter, quad.linear ? 1 : 0)
                glUniform2f(uniforms.cellSize, quad.cellSize.0, quad.cellSize.1)
                glUniform2f(uniforms.origin, Float(quad.x.origin), Float(quad.y.origin))
                glUniform2f(uniforms.num, Float(quad.x.num), Float(quad.y.num))
                glUniform2f(uniforms.den, Float(quad.x.den), Float(quad.y.den))
                glUniform2f(uniforms.wrapAxis, quad.x.addressing == .wrap ? 1 : 0, quad.y.addressing == .wrap ? 1 : 0)
            }
            try GLCheck.gl("glDrawArrays") { glDrawArrays(GLenum(GL_TRIANGLES), GLint(i * 6), 6) }
        }
    }

    /// Keeps one renderbuffer at least `width × height`, growing it as needed.
    func ensureFramebuffer(width: Int, height: Int) throws {
        try GLCheck.gl("glBindFramebuffer") { glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer) }
        if renderbuffer != 0 && renderbufferSize.width >= width && renderbufferSize.height >= height { return }
        if renderbuffer == 0 {
            try GLCheck.gl("glGenRenderbuffers") { glGenRenderbuffers(1, &renderbuffer) }
        }
        let size = (max(width, renderbufferSize.width), max(height, renderbufferSize.height))
        try GLCheck.gl("glBindRenderbuffer") { glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer) }
        try GLCheck.gl("glRenderbufferStorage") {
            glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(size.0), GLsizei(size.1))
        }
        try GLCheck.gl("glFramebufferRenderbuffer") {
            glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
        }
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw GlsliceError(.internal, "glCheckFramebufferStatus: incomplete (0x\(String(status, radix: 16))) at \(size.0)x\(size.1)")
        }
        renderbufferSize = size
    }

    private static func compile(_ type: Int32, _ source: String, name: String) throws -> GLuint {
        let shader = glCreateShader(GLenum(type))
        guard shader != 0 else { throw GlsliceError(.internal, "glCreateShader(\(name)) failed: \(GLCheck.glErrorName(glGetError()))") }
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var status: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &status)
        guard status == GL_TRUE else {
            var log = [GLchar](repeating: 0, count: 2048)
            glGetShaderInfoLog(shader, GLsizei(log.count), nil, &log)
            glDeleteShader(shader)
            throw GlsliceError(.internal, "compiling \(name) failed: \(cMessage(log))")
        }
        try GLCheck.gl("glCompileShader(\(name))")
        return shader
    }

    private static func link(vertex: String, fragment: String) throws -> GLuint {
        let vs = try compile(GL_VERTEX_SHADER, vertex, name: "nine_slice.vert")
        defer { glDeleteShader(vs) }
        let fs = try compile(GL_FRAGMENT_SHADER, fragment, name: "nine_slice.frag")
        defer { glDeleteShader(fs) }
        let program = glCreateProgram()
        guard program != 0 else { throw GlsliceError(.internal, "glCreateProgram failed") }
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        glLinkProgram(program)
        var status: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        guard status == GL_TRUE else {
            var log = [GLchar](repeating: 0, count: 2048)
            glGetProgramInfoLog(program, GLsizei(log.count), nil, &log)
            glDeleteProgram(program)
            throw GlsliceError(.internal, "linking the nine-slice program failed: \(cMessage(log))")
        }
        try GLCheck.gl("glLinkProgram")
        return program
    }
}

extension GPURenderer {
    /// Reads `width × height` pixels of the framebuffer into `output` (rows `width × 4` apart).
    func readPixels(width: Int, height: Int, into output: UnsafeMutableRawPointer) throws {
        try GLCheck.gl("glPixelStorei(GL_PACK_ROW_LENGTH)") { glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), GLint(width)) }
        try GLCheck.gl("glReadPixels") {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), output)
        }
    }
}

/// A ring of pixel-pack buffers with fences: `glReadPixels` into a buffer
/// returns at once on a real GPU, so the next atlas is drawn while this one
/// is copied out. (On llvmpipe the read is synchronous and the ring only costs.)
final class PixelPackRing {
    private var buffers: [GLuint]
    private var capacities: [Int]
    private var fences: [GLsync?]
    private var next = 0

    init(count: Int) throws {
        buffers = [GLuint](repeating: 0, count: count)
        capacities = [Int](repeating: 0, count: count)
        fences = [GLsync?](repeating: nil, count: count)
        try GLCheck.gl("glGenBuffers(pixel pack)") { glGenBuffers(GLsizei(count), &buffers) }
    }

    deinit {
        for fence in fences { if let fence { glDeleteSync(fence) } }
        glDeleteBuffers(GLsizei(buffers.count), buffers)
    }

    var count: Int { buffers.count }

    /// Starts reading the framebuffer's `width × height` pixels; returns the slot.
    func start(width: Int, height: Int) throws -> Int {
        let slot = next
        next = (next + 1) % buffers.count
        let bytes = width * height * 4
        let target = GLenum(GL_PIXEL_PACK_BUFFER)
        try GLCheck.gl("glBindBuffer(GL_PIXEL_PACK_BUFFER)") { glBindBuffer(target, buffers[slot]) }
        if capacities[slot] < bytes {
            try GLCheck.gl("glBufferData(GL_PIXEL_PACK_BUFFER)") { glBufferData(target, bytes, nil, GLenum(GL_STREAM_READ)) }
            capacities[slot] = bytes
        }
        try GLCheck.gl("glPixelStorei(GL_PACK_ROW_LENGTH)") { glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), GLint(width)) }
        try GLCheck.gl("glReadPixels(into buffer)") {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        }
        let fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        try GLCheck.gl("glFenceSync")
        fences[slot] = fence
        try GLCheck.gl("glBindBuffer(0)") { glBindBuffer(target, 0) }
        return slot
    }

    /// Waits for `slot`'s read and hands its bytes to `body`.
    func finish(_ slot: Int, bytes: Int, _ body: (UnsafeRawPointer) throws -> Void) throws {
        if let fence = fences[slot] {
            let status = glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 10_000_000_000)
            glDeleteSync(fence)
            fences[slot] = nil
            guard status == GLenum(GL_ALREADY_SIGNALED) || status == GLenum(GL_CONDITION_SATISFIED) else {
                throw GlsliceError(.internal, "glClientWaitSync failed: 0x\(String(status, radix: 16))")
            }
        }
        let target = GLenum(GL_PIXEL_PACK_BUFFER)
        try GLCheck.gl("glBindBuffer(GL_PIXEL_PACK_BUFFER)") { glBindBuffer(target, buffers[slot]) }
        defer { glBindBuffer(target, 0) }
        guard let mapped = glMapBufferRange(target, 0, bytes, GLbitfield(GL_MAP_READ_BIT)) else {
            throw GlsliceError(.internal, "glMapBufferRange failed: \(GLCheck.glErrorName(glGetError()))")
        }
        defer { glUnmapBuffer(target) }
        try body(UnsafeRawPointer(mapped))
    }
}
