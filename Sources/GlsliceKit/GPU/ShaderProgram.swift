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
        var status: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &status)
        guard status == GL_TRUE else {
            var log = [GLchar](repeating: 0, count: 2048)
            glGetShaderInfoLog(shader, GLsizei(log.count), nil, &log)
            glDeleteShader(shader)
            throw InternalErrors.shaderCompileFailed(name, log: cMessage(log))
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

    /// Links compiled `shaders` into a program; a failure carries the driver's log.
    private static func link(_ shaders: [GLuint], name: String) throws -> GLuint {
        let program = glCreateProgram()
        guard program != 0 else { throw InternalErrors.glFailed("glCreateProgram", GLCheck.glErrorName(glGetError())) }
        for shader in shaders { glAttachShader(program, shader) }
        glLinkProgram(program)
        var status: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        guard status == GL_TRUE else {
            var log = [GLchar](repeating: 0, count: 2048)
            glGetProgramInfoLog(program, GLsizei(log.count), nil, &log)
            glDeleteProgram(program)
            throw InternalErrors.programLinkFailed(name, log: cMessage(log))
        }
        try GLCheck.gl("glLinkProgram(\(name))")
        return program
    }
}
