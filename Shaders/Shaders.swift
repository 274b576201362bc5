/// The GLSL ES 3.00 sources, embedded at build time so glslice runs from any folder.
public enum ShaderSource {
    public static let vertex = String(decoding: PackageResources.nine_slice_vert, as: UTF8.self)
    public static let fragment = String(decoding: PackageResources.nine_slice_frag, as: UTF8.self)
}
