import Foundation

/// `optimize` for an Xcode image set: each sliced variant is reduced and
/// proven on its own (its caps and centre in its own pixels), written beside
/// the others, and `Contents.json` gets the new centre sizes.
enum ImageSetOptimizer {
    static func optimize(input: String, output: String, keepPeriod: Bool, limits: Limits) throws -> Optimizer.Report {
        let set = try ImageSet(path: input)
        var out = output.hasSuffix("/") ? String(output.dropLast()) : output
        if out.hasSuffix("/Contents.json") { out = (out as NSString).deletingLastPathComponent }
        guard out.hasSuffix(".imageset") else {
            throw GlsliceError(.usage, file: output, "the output of an image set must be a folder named NAME.imageset")
        }
        let contentsPath = set.folder + "/Contents.json"
        let data = try ImageSet.readContents(contentsPath)
        guard var root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              var entries = root["images"] as? [[String: Any]] else {
            throw GlsliceError(.badInput, file: contentsPath, "not an image set: expected {\"images\": [...]}")
        }
        var files: [(name: String, data: Data)] = []
        var modes = Set(ResizeMode.allCases), checks = 0, before = 0, after = 0, bytesBefore = 0, bytesAfter = 0
        var largest = (before: PixelSize(width: 0, height: 0), after: PixelSize(width: 0, height: 0), scale: 0.0)
        for (index, entry) in entries.enumerated() {
            guard let name = entry["filename"] as? String, let variant = set.variants.first(where: { $0.file == set.folder + "/" + name }) else { continue }
            let original = try PNGDecoder.readInput(variant.file)
            bytesBefore += original.count
            let loaded = try SourceImage.decode(data: original, path: variant.file, maxPixels: limits.maxSourcePixels)
            guard let resizing = variant.resizing else {
                files.append((name, original))
                bytesAfter += original.count
                continue
            }
            let sliced = try ImageSet.apply(resizing, to: loaded, file: variant.file)
            guard let lattice = sliced.hints.lattice else { continue }
            let result = try Optimizer.proven(sliced.image, lattice: lattice, keepPeriod: keepPeriod, file: variant.file)
            modes.formIntersection(result.modes)
            checks += result.checks
            before += loaded.size.pixelCount
            after += result.image.width * result.image.height
            if variant.scale > largest.scale {
                largest = (loaded.size, PixelSize(width: result.image.width, height: result.image.height), variant.scale)
            }
            // Nothing dropped: keep the file's own bytes.
            let unchanged = result.image.width == loaded.size.width && result.image.height == loaded.size.height
            let encoded = unchanged ? original : try encode(result.image)
            bytesAfter += encoded.count
            files.append((name, encoded))
            var resizingJSON = entry["resizing"] as? [String: Any] ?? [:]
            var center = resizingJSON["center"] as? [String: Any] ?? [:]
            let centreX = result.lattice.x.first(where: \.scalable)?.length, centreY = result.lattice.y.first(where: \.scalable)?.length
            if resizing.slicing != .vertical, let centreX { center["width"] = centreX }
            if resizing.slicing != .horizontal, let centreY { center["height"] = centreY }
            resizingJSON["center"] = center
            entries[index]["resizing"] = resizingJSON
        }
        root["images"] = entries
        let json = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        try writeFolder(out, files: files + [("Contents.json", json + Data("\n".utf8))])
        return Optimizer.Report(input: input, output: out, kind: "imageset", before: largest.before, after: largest.after,
                                insets: nil, equalModes: ResizeMode.allCases.filter(modes.contains), checksPerMode: checks,
                                bytesBefore: bytesBefore, bytesAfter: bytesAfter,
                                defaultModeLost: nil)
    }

    static func encode(_ image: PremultipliedImage) throws -> Data {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-optimize-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        _ = try PNGEncoder.write(image, to: .file(temporary), compression: .small)
        return try PNGDecoder.readInput(temporary)
    }

    /// Writes the folder under a temporary name beside `path`, then puts it in place.
    static func writeFolder(_ path: String, files: [(name: String, data: Data)]) throws {
        let fm = FileManager.default
        let temporary = path + ".glslice-\(UUID().uuidString.prefix(8))"
        do {
            try fm.createDirectory(atPath: temporary, withIntermediateDirectories: true)
            for file in files {
                try file.data.write(to: URL(fileURLWithPath: temporary + "/" + file.name), options: .atomic)
            }
            if fm.fileExists(atPath: path) {
                let old = path + ".glslice-old-\(UUID().uuidString.prefix(8))"
                try fm.moveItem(atPath: path, toPath: old)
                try fm.moveItem(atPath: temporary, toPath: path)
                try? fm.removeItem(atPath: old)
            } else {
                try fm.moveItem(atPath: temporary, toPath: path)
            }
        } catch {
            try? fm.removeItem(atPath: temporary)
            throw GlsliceError(.cannotWrite, file: path, "cannot write the image set folder")
        }
    }
}
