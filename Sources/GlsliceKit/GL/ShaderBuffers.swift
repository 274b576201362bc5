import CEGL

/// Shader storage buffers (ES 3.1) a compute pass reads and writes, each
/// at least the size a dispatch needs, every call checked. What they
/// hold is charged to `memory` (`.encoder`), so `--gpu-mb` and `/metrics` see
/// it, and `shrink` gives a large call's storage back.
final class ShaderBuffers {
    private var names: [GLuint]
    private let target = GLenum(GL_SHADER_STORAGE_BUFFER)
    /// Each buffer's size in bytes, as last specified.
    private var sizes: [Int]
    private let memory: GPUMemory?

    init(count: Int, memory: GPUMemory? = nil) throws {
        var names = [GLuint](repeating: 0, count: count)
        try GLCheck.gl("glGenBuffers") { glGenBuffers(GLsizei(count), &names) }
        self.names = names
        sizes = [Int](repeating: 0, count: count)
        self.memory = memory
    }

    deinit {
        memory?.add(.encoder, -sizes.reduce(0, +))
        if eglGetCurrentContext() != nil { glDeleteBuffers(GLsizei(names.count), names) }
    }

    /// Re-specifies every buffer over `keeping` bytes at one word, so a large call's storage is given back.
    func shrink(keeping: Int = 64 << 10) throws {
        for slot in names.indices where sizes[slot] > keeping {
            try respecify(slot, size: 4)
        }
    }

    private func respecify(_ slot: Int, size: Int) throws {
        try GLCheck.gl("glBindBuffer(\(slot))") { glBindBuffer(target, names[slot]) }
        try GLCheck.gl("glBufferData(\(slot), \(size))") { glBufferData(target, GLsizeiptr(size), nil, GLenum(GL_DYNAMIC_DRAW)) }
        memory?.add(.encoder, size - sizes[slot])
        sizes[slot] = size
    }

    /// The GL name of buffer `slot` (to read pixels into it as a pack buffer).
    func name(_ slot: Int) -> GLuint { names[slot] }

    /// Binds buffer `slot` to the shader's `binding`.
    func bind(_ slot: Int, to binding: Int) throws {
        try GLCheck.gl("glBindBufferBase(\(binding))") { glBindBufferBase(target, GLuint(binding), names[slot]) }
    }

    /// Makes `slot` hold at least `size` bytes, bound: the storage it has where that is enough,
    /// else new storage of `size`. A burst's calls then specify only their largest (`shrink` gives
    /// it back after the burst; each is within the budget's shares): llvmpipe zero-fills each new
    /// store, most of the GL thread's CPU time on HD outputs (issue 52). So a buffer may be larger
    /// than its contents; the shaders read only what a call wrote.
    private func ensure(_ slot: Int, size: Int) throws {
        if sizes[slot] >= size {
            try GLCheck.gl("glBindBuffer(\(slot))") { glBindBuffer(target, names[slot]) }
        } else {
            try respecify(slot, size: size)
        }
    }

    /// Makes `slot` hold `bytes` from its start, its size at least `bytes` rounded up to `padTo`.
    func upload(_ slot: Int, _ bytes: UnsafeRawBufferPointer, padTo multiple: Int = 4) throws {
        let size = max(multiple, (bytes.count + multiple - 1) / multiple * multiple)
        try ensure(slot, size: size)
        if let base = bytes.baseAddress, bytes.count > 0 {
            try GLCheck.gl("glBufferSubData(\(slot))") { glBufferSubData(target, 0, GLsizeiptr(bytes.count), base) }
        }
    }

    /// Makes room in `slot` for `words` words, left as the driver gives them: for a
    /// buffer a pass writes whole before anything reads it.
    func reserve(_ slot: Int, words: Int) throws {
        try upload(slot, UnsafeRawBufferPointer(start: nil, count: 0), padTo: max(4, 4 * words))
    }

    /// Writes `bytes` into `slot` from byte `offset`, keeping the rest (its storage stays).
    func write(_ slot: Int, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        try GLCheck.gl("glBindBuffer(\(slot))") { glBindBuffer(target, names[slot]) }
        try GLCheck.gl("glBufferSubData(\(slot), \(offset))") { glBufferSubData(target, GLintptr(offset), GLsizeiptr(bytes.count), base) }
    }

    /// `words` words of `slot`, from word `first`.
    func read(_ slot: Int, words: Int, from first: Int = 0) throws -> [UInt32] {
        guard words > 0 else { return [] }
        try GLCheck.gl("glBindBuffer(\(slot))") { glBindBuffer(target, names[slot]) }
        // A read-back: the GPU's passes before it finish first (a wait).
        guard let mapped = GLTally.timing(.wait, { glMapBufferRange(target, GLintptr(4 * first), GLsizeiptr(words * 4), GLbitfield(GL_MAP_READ_BIT)) }) else {
            throw InternalErrors.glFailed("glMapBufferRange(\(slot))", GLCheck.glErrorName(glGetError()))
        }
        let result = Array(UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt32.self), count: words))
        try GLCheck.gl("glUnmapBuffer(\(slot))") { glUnmapBuffer(target) }
        return result
    }
}
