/// The file format an output is written in. Both are lossless.
public enum ImageFormat: String, CaseIterable, Sendable, Codable {
    case png
    /// Lossless WebP through libwebp: every pixel value kept.
    case webp

    public init(parsing text: String) throws {
        guard let format = ImageFormat(rawValue: text.lowercased()) else {
            throw UsageErrors.notAChoice(text, of: ImageFormat.allCases.map(\.rawValue), option: .format)
        }
        self = format
    }

    /// Image formats glslice reads about but cannot write: an output named so is
    /// refused rather than written as PNG under a name that says otherwise.
    static let unwritable = ["jpg", "jpeg", "jpe", "jfif", "gif", "avif", "heic", "heif", "bmp", "tif", "tiff", "jxl", "ico", "svg"]

    /// The format `path`'s name says (`.png`, `.webp`), nil when it says none
    /// (no extension, another one, `-`); throws for an image format glslice cannot write.
    package static func named(_ path: String) throws -> ImageFormat? {
        let name = PathText.name(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        if let format = ImageFormat(rawValue: ext) { return format }
        if unwritable.contains(ext) {
            throw UsageErrors.unwritableFormat(path, ext: ext)
        }
        return nil
    }

    /// The MIME type of an answer in this format.
    package var mediaType: String {
        switch self {
        case .png: "image/png"
        case .webp: "image/webp"
        }
    }
}
