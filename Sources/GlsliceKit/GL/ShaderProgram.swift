import CEGL

/// Compiles and links the nine-slice program and the compute programs; a failure carries the driver's log.
enum ShaderProgram {
    static func compile(_ type: Int32, _ source: String, name: String) throws -> GLuint {
        let shader = try made(glCreateShader(GLenum(type)), "glCreateShader(\(name))")
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        try check(shader, GL_COMPILE_STATUS, status: glGetShaderiv, log: glGetShaderInfoLog, delete: glDeleteShader, call: "glCompileShader(\(name))") {
            InternalErrors.shaderCompileFailed(name, log: $0)
        }
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

    /// `object` as made by a `glCreate…` call, which gives 0 when it fails.
    private static func made(_ object: GLuint, _ call: String) throws -> GLuint {
        guard object != 0 else { throw InternalErrors.glFailed(call, GLCheck.glErrorName(glGetError())) }
        return object
    }

    /// Throws `failure` with the driver's log, `object` deleted, when its `pname` status (compile or link)
    /// is not GL_TRUE (read with that object's two getters); then checks `call` for a GL error.
    private static func check(_ object: GLuint, _ pname: Int32, status: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
                              log: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void,
                              delete: (GLuint) -> Void, call: String, failure: (String) -> GlsliceError) throws {
        var state: GLint = 0
        status(object, GLenum(pname), &state)
        if state != GL_TRUE {
            var text = [GLchar](repeating: 0, count: 2048)
            log(object, GLsizei(text.count), nil, &text)
            delete(object)
            throw failure(cMessage(text))
        }
        try GLCheck.gl(call)
    }

    /// Links compiled `shaders` into a program; a failure carries the driver's log.
    private static func link(_ shaders: [GLuint], name: String) throws -> GLuint {
        let program = try made(glCreateProgram(), "glCreateProgram")
        for shader in shaders { glAttachShader(program, shader) }
        glLinkProgram(program)
        try check(program, GL_LINK_STATUS, status: glGetProgramiv, log: glGetProgramInfoLog, delete: glDeleteProgram, call: "glLinkProgram(\(name))") {
            InternalErrors.programLinkFailed(name, log: $0)
        }
        return program
    }
}
