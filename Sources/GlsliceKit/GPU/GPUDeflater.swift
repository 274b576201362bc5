import CEGL
import Shaders

/// `--compression fast`'s token choice as a compute pass (issue 43): one GPU
/// invocation per PNG row runs `Shaders/deflate_tokens.comp`, the twin of
/// `RepeatDeflater`'s row rule, so the tokens are the CPU's, row for row.
/// Needs an ES 3.1 context (`GPUContext.hasCompute`).
///
/// Not `Sendable`: its GL objects belong to the context's thread.
final class GPUDeflater {
    let context: GPUContext
    private let program: GLuint
    /// scanlines, parts, copies, tokens, counts: the shader's bindings 0-4.
    private var buffers: [GLuint] = [0, 0, 0, 0, 0]
    private let uniforms: Uniforms

    /// The shader's uniforms' locations.
    private struct Uniforms {
        var rowBytes, pixelBytes, rows, firstRowByte, hashBits: GLint
    }
    /// Rows one dispatch takes: 64 a group, and the 65,535 groups every ES 3.1 driver allows.
    static let maxRowsPerDispatch = 64 * 65535

    init(context: GPUContext) throws {
        guard context.hasCompute else { throw UnavailableErrors.noCompute(context.version) }
        self.context = context
        try context.makeCurrent()
        let program = try ShaderProgram.link(compute: ShaderSource.deflateTokens, name: "deflate_tokens.comp")
        self.program = program
        do {
            func location(_ name: String) throws -> GLint {
                let location = glGetUniformLocation(program, name)
                guard location >= 0 else { throw InternalErrors.shaderVariableMissing("glGetUniformLocation(\(name))") }
                return location
            }
            uniforms = Uniforms(rowBytes: try location("rowBytes"), pixelBytes: try location("pixelBytes"), rows: try location("rows"),
                                firstRowByte: try location("firstRowByte"), hashBits: try location("hashBits"))
            var made: [GLuint] = [0, 0, 0, 0, 0]
            try GLCheck.gl("glGenBuffers") { glGenBuffers(GLsizei(made.count), &made) }
            buffers = made
        } catch {
            glDeleteProgram(program)
            throw error
        }
    }

    deinit {
        if (try? context.makeCurrent()) != nil {
            glDeleteBuffers(GLsizei(buffers.count), buffers)
            glDeleteProgram(program)
        }
    }

    /// Each row's tokens for `rows` rows starting `firstRowByte` bytes into
    /// `scanlines`, which holds before them every byte a match may reach (the
    /// image from its first byte, or 32 KiB at least). `firstRow` is the first
    /// row's index in the image, for the deflater's map.
    func tokens(_ deflater: RepeatDeflater, scanlines: UnsafeRawBufferPointer, firstRowByte: Int, firstRow: Int, rows: Int) throws -> [[DeflateToken]] {
        let (rowBytes, pixelBytes) = deflater.rowBytesAndPixelBytes
        try context.makeCurrent()
        try GLCheck.gl("glUseProgram(deflate_tokens)") { glUseProgram(program) }
        // Words, so the shader reads whole `uint`s to the end.
        try upload(0, bytes: scanlines, padTo: 4)
        try deflater.packedParts.withUnsafeBytes { try upload(1, bytes: $0) }
        var all: [[DeflateToken]] = []
        all.reserveCapacity(rows)
        var done = 0
        while done < rows {
            let count = min(rows - done, Self.maxRowsPerDispatch)
            let start = firstRowByte + done * rowBytes
            try deflater.copyBacks(firstRow: firstRow + done, rows: count, history: start).withUnsafeBytes { try upload(2, bytes: $0) }
            try reserve(3, bytes: count * rowBytes * 4)
            try reserve(4, bytes: count * 4)
            glUniform1ui(uniforms.rowBytes, GLuint(rowBytes))
            glUniform1ui(uniforms.pixelBytes, GLuint(pixelBytes))
            glUniform1ui(uniforms.rows, GLuint(count))
            glUniform1ui(uniforms.firstRowByte, GLuint(start))
            glUniform1ui(uniforms.hashBits, GLuint(RepeatDeflater.hashBits(rowBytes: rowBytes)))
            try GLCheck.gl("glUniform1ui(deflate_tokens)")
            try dispatch(groups: (count + 63) / 64)
            let counts = try read(4, count: count)
            let tokens = try read(3, count: count * rowBytes)
            for r in 0..<count {
                let first = r * rowBytes
                all.append(tokens[first..<(first + Int(counts[r]))].map { DeflateToken(packed: $0) })
            }
            done += count
        }
        return all
    }

    /// Runs the program over `groups` work groups, checked, and makes its writes visible to reads.
    func dispatch(groups: Int) throws {
        try GLCheck.gl("glUseProgram(deflate_tokens)") { glUseProgram(program) }
        try GLCheck.gl("glDispatchCompute(deflate_tokens, \(groups))") { glDispatchCompute(GLuint(clamping: groups), 1, 1) }
        try GLCheck.gl("glMemoryBarrier") { glMemoryBarrier(GLbitfield(GL_BUFFER_UPDATE_BARRIER_BIT)) }
    }

    private func upload(_ binding: Int, bytes: UnsafeRawBufferPointer, padTo multiple: Int = 1) throws {
        let size = max(multiple, (bytes.count + multiple - 1) / multiple * multiple)
        try GLCheck.gl("glBindBufferBase(\(binding))") {
            glBindBufferBase(GLenum(GL_SHADER_STORAGE_BUFFER), GLuint(binding), buffers[binding])
        }
        try GLCheck.gl("glBufferData(\(binding), \(size))") {
            glBufferData(GLenum(GL_SHADER_STORAGE_BUFFER), GLsizeiptr(size), nil, GLenum(GL_STATIC_DRAW))
        }
        if let base = bytes.baseAddress, bytes.count > 0 {
            try GLCheck.gl("glBufferSubData(\(binding))") {
                glBufferSubData(GLenum(GL_SHADER_STORAGE_BUFFER), 0, GLsizeiptr(bytes.count), base)
            }
        }
    }

    private func reserve(_ binding: Int, bytes: Int) throws {
        try upload(binding, bytes: UnsafeRawBufferPointer(start: nil, count: 0), padTo: max(4, bytes))
    }

    private func read(_ binding: Int, count: Int) throws -> [UInt32] {
        try GLCheck.gl("glBindBuffer(\(binding))") { glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), buffers[binding]) }
        guard count > 0 else { return [] }
        guard let mapped = glMapBufferRange(GLenum(GL_SHADER_STORAGE_BUFFER), 0, GLsizeiptr(count * 4), GLbitfield(GL_MAP_READ_BIT)) else {
            throw InternalErrors.glFailed("glMapBufferRange(\(binding))", GLCheck.glErrorName(glGetError()))
        }
        let words = Array(UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt32.self), count: count))
        try GLCheck.gl("glUnmapBuffer(\(binding))") { glUnmapBuffer(GLenum(GL_SHADER_STORAGE_BUFFER)) }
        return words
    }
}
