import CEGL

/// A linked compute program (ES 3.1) with its `uint` uniforms, every call
/// checked: a dispatch the driver refuses is one error naming it.
final class ComputeProgram {
    let name: String
    private let program: GLuint
    /// Each uniform's location, looked up by name in a short list: a dictionary (and one made
    /// from a literal at every `set`) was a tenth of the GL thread's own work (issue 52).
    private let locations: [(name: String, location: GLint)]

    init(_ source: String, name: String, uniforms: [String]) throws {
        self.name = name
        // Constants and record positions from their one definition (`ShaderRecords`).
        let program = try ShaderProgram.link(compute: ShaderRecords.defining(source), name: name)
        var locations: [(name: String, location: GLint)] = []
        for uniform in uniforms {
            let location = glGetUniformLocation(program, uniform)
            guard location >= 0 else {
                glDeleteProgram(program)
                throw InternalErrors.shaderVariableMissing("glGetUniformLocation(\(uniform))")
            }
            locations.append((uniform, location))
        }
        self.program = program
        self.locations = locations
    }

    /// Deleted with the context current only (a context never made current has nothing to delete).
    deinit { if eglGetCurrentContext() != nil { glDeleteProgram(program) } }

    func use() throws { try GLCheck.gl("glUseProgram(\(name))") { glUseProgram(program) } }

    /// Sets `uint` uniforms of the program in use, in the order given, timed as GL calls (they
    /// had been counted as the GL thread's own work); a name the program lacks stops there.
    func set(_ values: KeyValuePairs<String, Int>) throws {
        var missing: String?
        try GLCheck.gl("glUniform1ui(\(name))") {
            for (uniform, value) in values {
                guard let location = locations.first(where: { $0.name == uniform })?.location else {
                    missing = uniform
                    return
                }
                glUniform1ui(location, GLuint(truncatingIfNeeded: value))
            }
        }
        if let missing { throw InternalErrors.shaderVariableMissing("glUniform1ui(\(missing))") }
    }

    /// Runs the program in use over `groups` work groups (a second dimension
    /// past the 65,535 every driver allows in one) and makes its writes visible
    /// to the next pass and to buffer reads. The shader numbers its invocations
    /// `y * gl_NumWorkGroups.x * 64 + x`.
    func dispatch(groups: Int) throws {
        let x = min(max(groups, 1), 65535), y = groups > 65535 ? (groups + 65534) / 65535 : 1
        try dispatch(x: groups > 65535 ? x : groups, y: y)
    }

    func dispatch(x: Int, y: Int) throws {
        try GLCheck.gl("glDispatchCompute(\(name), \(x), \(y))", .dispatch) { glDispatchCompute(GLuint(clamping: x), GLuint(clamping: y), 1) }
        try GLCheck.gl("glMemoryBarrier(\(name))") {
            glMemoryBarrier(GLbitfield(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT))
        }
    }
}
