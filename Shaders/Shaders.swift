/// The GLSL ES sources (3.00 to draw, 3.10 to encode), embedded at build time so glslice runs from any folder.
public enum ShaderSource {
    public static let vertex = String(decoding: PackageResources.nine_slice_vert, as: UTF8.self)
    public static let fragment = String(decoding: PackageResources.nine_slice_frag, as: UTF8.self)
    /// GLSL ES 3.10: `--compression fast`'s token choice, one invocation per row.
    public static let deflateTokens = String(decoding: PackageResources.deflate_tokens_comp, as: UTF8.self)
    /// GLSL ES 3.10: codes those tokens (counts, bits, then the bits themselves).
    public static let deflatePack = String(decoding: PackageResources.deflate_pack_comp, as: UTF8.self)
    /// GLSL ES 3.10: each deflate block's code from its symbol counts (the twin of `BlockCode`).
    public static let deflateCode = String(decoding: PackageResources.deflate_code_comp, as: UTF8.self)
    /// GLSL ES 3.10: a drawn output's colours and PNG scanlines.
    public static let scanlines = String(decoding: PackageResources.scanlines_comp, as: UTF8.self)
}
