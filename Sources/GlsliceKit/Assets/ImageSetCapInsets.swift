import Foundation

/// Writes caps into an image set, as Xcode's slicing editor does: every
/// image's `resizing` becomes 9-part with `cap-insets` in that image's own
/// pixels (the caps given in points × its scale) and a centre of everything
/// between them. The rest of `Contents.json` is kept; the file is replaced
/// whole (`OutputFile`), beneath `scope` as it was read.
package enum ImageSetCapInsets {
    /// Returns the `Contents.json` written and the image files whose slicing it gives.
    @discardableResult
    package static func write(_ insets: Insets, centerMode: ResizeMode, toSet path: String, in scope: FileScope,
                              maxPixels: Int) throws -> (contents: String, images: [String]) {
        let set = try ImageSet.read(path: path, in: scope)
        let contentsPath = set.folder + "/Contents.json"
        let data = try ImageSet.readContents(contentsPath, in: scope)
        guard var root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              var images = root["images"] as? [[String: Any]] else {
            throw InputErrors.notAnImageSet(contentsPath)
        }
        guard centerMode == .stretch || centerMode == .tile else {
            throw UsageErrors.centreModeOfImageSet(centerMode.rawValue)
        }
        var written: [String] = []
        for index in images.indices {
            guard let name = images[index]["filename"] as? String,
                  let variant = set.variants.first(where: { $0.file == set.folder + "/" + name }) else { continue }
            let size = try ResolvedSource.load(input: variant.file, outputScale: nil, maxPixels: maxPixels, scope: scope).source.size
            let caps = try PixelInsets(insets, sourceScale: variant.scale)
            let width = size.width - caps.left - caps.right, height = size.height - caps.top - caps.bottom
            guard width >= 1, height >= 1 else {
                throw InputErrors.capsLeaveNoCentre(variant.file, caps: insets.formatted, scale: variant.scale, size: "\(size)")
            }
            images[index]["resizing"] = [
                "mode": "9-part",
                "center": ["mode": centerMode.rawValue, "width": width, "height": height],
                "cap-insets": ["top": caps.top, "left": caps.left, "bottom": caps.bottom, "right": caps.right],
            ] as [String: Any]
            written.append(variant.file)
        }
        root["images"] = images
        let json = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let file = try OutputFile(contentsPath, beneath: scope)
        try writeAll(json + Data("\n".utf8), to: file.descriptor, name: contentsPath)
        try file.commit()
        return (contentsPath, written)
    }
}
