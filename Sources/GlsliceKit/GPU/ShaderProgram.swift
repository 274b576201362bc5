import CEGL

/// Compiles and links the nine-slice program and the compute programs; a failure carries the driver's log.
enum ShaderProgram {
    static func compile(_ type: Int32, _ source: String, name: String) throws -> GLuint {
        let shader = glCreateShader(GLenum(type))
        guard shader != 0 else { throw InternalErrors.glFailed("glCreateShader(\(name))", GLCheck.glErrorName(glGetError())) }
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        if let log = failureLog(shader, GL_COMPILE_STATUS, status: glGetShaderiv, log: glGetShaderInfoLog) {
            glDeleteShader(shader)
            throw InternalErrors.shaderCompileFailed(name, log: log)
        }
        try GLCheck.gl("glCompileShader(\(name))")
        return shader
    }

    static func link(vertex: String, fragment: String) throws -> GLuint {
        let vs = try compile(GL_VERTEX_SHADER, vertex, name: "nine_slice.vert")
        defer { glDeleteShader(vs) }
        let fs = try compile(GL_FRAGMENT_SHADER, fragment, name: "nine_slice.frag")
        defer { glDeleteShader(fs) }
        return try link([vs, fs], name: "the nine-slice program")
    }

    /// A compute program (ES 3.1) of one shader.
    static func link(compute source: String, name: String) throws -> GLuint {
        let shader = try compile(GL_COMPUTE_SHADER, source, name: name)
        defer { glDeleteShader(shader) }
        return try link([shader], name: name)
    }

    /// The driver's log for a shader or program whose `pname` status (compile or link) is not
    /// GL_TRUE, read with that object's two getters; nil when it is.
    private static func failureLog(_ object: GLuint, _ pname: Int32, status: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
                                   log: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void) -> String? {
        var state: GLint = 0
        status(object, GLenum(pname), &state)
        guard state != GL_TRUE else { return nil }
        var text = [GLchar](repeating: 0, count: 2048)
        log(object, GLsizei(text.count), nil, &text)
        return cMessage(text)
    }

    /// Links compiled `shaders` into a program; a failure carries the driver's log.
    private static func link(_ shaders: [GLuint], name: String) throws -> GLuint {
        let program = glCreateProgram()
        guard program != 0 else { throw InternalErrors.glFailed("glCreateProgram", GLCheck.glErrorName(glGetError())) }
        for shader in shaders { glAttachShader(program, shader) }
        glLinkProgram(program)
        if let log = failureLog(program, GL_LINK_STATUS, status: glGetProgramiv, log: glGetProgramInfoLog) {
            glDeleteProgram(program)
            throw InternalErrors.programLinkFailed(name, log: log)
        }
        try GLCheck.gl("glLinkProgram(\(name))")
        return program
    }
}
