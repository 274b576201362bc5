import CEGL

/// A linked compute program (ES 3.1) with its `uint` uniforms, every call
/// checked: a dispatch the driver refuses is one error naming it.
final class ComputeProgram {
    let name: String
    private let program: GLuint
    private let locations: [String: GLint]

    init(_ source: String, name: String, uniforms: [String]) throws {
        self.name = name
        let program = try ShaderProgram.link(compute: source, name: name)
        var locations: [String: GLint] = [:]
        for uniform in uniforms {
            let location = glGetUniformLocation(program, uniform)
            guard location >= 0 else {
                glDeleteProgram(program)
                throw InternalErrors.shaderVariableMissing("glGetUniformLocation(\(uniform))")
            }
            locations[uniform] = location
        }
        self.program = program
        self.locations = locations
    }

    /// Deleted with the context current only (a context never made current has nothing to delete).
    deinit { if eglGetCurrentContext() != nil { glDeleteProgram(program) } }

    func use() throws { try GLCheck.gl("glUseProgram(\(name))") { glUseProgram(program) } }

    /// Sets `uint` uniforms of the program in use.
    func set(_ values: [String: Int]) throws {
        for (uniform, value) in values {
            guard let location = locations[uniform] else { throw InternalErrors.shaderVariableMissing("glUniform1ui(\(uniform))") }
            glUniform1ui(location, GLuint(truncatingIfNeeded: value))
        }
        try GLCheck.gl("glUniform1ui(\(name))")
    }

    /// Runs the program in use over `groups` work groups and makes its writes
    /// visible to the next pass and to buffer reads.
    func dispatch(groups: Int) throws {
        try GLCheck.gl("glDispatchCompute(\(name), \(groups))") { glDispatchCompute(GLuint(clamping: groups), 1, 1) }
        try GLCheck.gl("glMemoryBarrier(\(name))") {
            glMemoryBarrier(GLbitfield(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT))
        }
    }
}
