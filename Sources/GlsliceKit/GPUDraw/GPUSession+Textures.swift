import CEGL

/// The session's cell textures: uploaded from a source's rectangle, shared
/// between jobs of one source through the `TextureCache`, and trimmed to
/// their share of the GPU budget.
extension GPUSession {
    /// Whether the cache holds more than its share of the GPU budget, so the
    /// caller should finish its draws and `trimTextureCache`.
    var textureCacheOverBudget: Bool { textureCache.isOver(bytes: memory.textureBytes) }

    /// Deletes the least recently used cached textures until the cache is within
    /// its bytes (half the GPU budget) and its count. Call it only when no
    /// prepared job that still has to draw uses the cache.
    func trimTextureCache() {
        guard textureCacheOverBudget, (try? context.makeCurrent()) != nil else { return }
        let (names, bytes) = textureCache.evict(downTo: memory.textureBytes)
        glDeleteTextures(GLsizei(names.count), names)
        memory.add(.textures, -bytes)
    }

    /// A texture holding `rect` of `source`: from the
    /// cache when `sourceKey` names it, else a new one the caller owns.
    func texture(source: PremultipliedImage, sourceKey: SourceKey?, rect: (x: Range<Int>, y: Range<Int>))
        throws -> (name: GLuint, owned: Bool) {
        let key = sourceKey.map { TextureCache.Key(source: $0, x: rect.x, y: rect.y) }
        if let key, let name = textureCache.use(key) { return (name, false) }
        let bytes = rect.x.count * rect.y.count * 4
        var texture: GLuint = 0
        try GLCheck.gl("glGenTextures") { glGenTextures(1, &texture) }
        do {
            let target = GLenum(GL_TEXTURE_2D)
            try GLCheck.gl("glBindTexture") { glBindTexture(target, texture) }
            // Texel centres only: the shader blends for `linear` (see nine_slice.frag).
            try GLCheck.gl("glTexParameteri") {
                glTexParameteri(target, GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
                glTexParameteri(target, GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
                // Read with texelFetch at the plan's addresses: the wrap modes never apply.
                glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
                glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
                glTexParameteri(target, GLenum(GL_TEXTURE_MAX_LEVEL), 0)
            }
            try source.rgba.pixels.withUnsafeBytes { raw in
                try GLCheck.gl("glPixelStorei(GL_UNPACK_*)") {
                    glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(source.width))
                    glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), GLint(rect.x.lowerBound))
                    glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), GLint(rect.y.lowerBound))
                }
                try GLCheck.gl("glTexImage2D") {
                    glTexImage2D(target, 0, GL_RGBA8, GLsizei(rect.x.count), GLsizei(rect.y.count), 0,
                                 GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), raw.baseAddress)
                }
                try GLCheck.gl("glPixelStorei(reset unpack)") {
                    glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
                    glPixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), 0)
                    glPixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), 0)
                }
            }
        } catch {
            glDeleteTextures(1, &texture)
            throw error
        }
        memory.add(.textures, bytes)
        if let key {
            textureCache.insert(key, name: texture, bytes: bytes)
            return (texture, false)
        }
        return (texture, true)
    }
}
