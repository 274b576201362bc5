import Foundation
import GlsliceKit

/// The preview page's "Write to image set": the caps the page shows written
/// into an image set's `Contents.json` (`ImageSetCapInsets`), beneath the root
/// only. Served only on a loopback server without a key (`ServeRoutes`).
struct ImageSetSaver: PreviewSaver {
    let files: PreviewFiles

    /// The set, its caps in points as `T,L,B,R`, and its centre's mode (`stretch` or `tile`).
    struct Request: Decodable, Sendable {
        var source: String
        var insets: String
        var center: String?
    }

    struct Saved: Encodable {
        var saved: String
        var images: [String]
    }

    func write(_ request: Request) -> Result<Saved, Refusal> {
        writing(source: request.source) { file in
            guard ImageSet.isImageSet(path: file) else { return .failure(.notAnImageSet(file)) }
            let insets = try Insets(parsing: request.insets)
            let mode = try ResizeMode(parsing: request.center ?? "stretch")
            let written = try ImageSetCapInsets.write(insets, centerMode: mode, toSet: file, in: files.root.scope,
                                                      maxPixels: files.limits.maxSourcePixels)
            return .success(Saved(saved: written.contents, images: written.images))
        }
    }
}
