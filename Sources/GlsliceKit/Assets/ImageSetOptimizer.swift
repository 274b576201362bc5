import CFiles
import Foundation

/// `optimize` for an Xcode image set: each sliced variant is reduced and
/// proven on its own (its caps and centre in its own pixels), written beside
/// the others, and `Contents.json` gets the new centre sizes.
enum ImageSetOptimizer {
    static func optimize(input: String, output: String, keepPeriod: Bool, limits: Limits) throws -> Optimizer.Report {
        let set = try ImageSet(path: input)
        var out = output.hasSuffix("/") ? String(output.dropLast()) : output
        if out.hasSuffix("/Contents.json") { out = PathText.folder(of: out) }
        guard out.hasSuffix(".imageset") else {
            throw UsageErrors.imageSetOutputName(output)
        }
        let contentsPath = set.folder + "/Contents.json"
        let data = try ImageSet.readContents(contentsPath)
        guard var root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              var entries = root["images"] as? [[String: Any]] else {
            throw InputErrors.notAnImageSet(contentsPath)
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
            // Nothing dropped, or a smaller image whose file is no smaller: keep the file's own bytes and centre.
            let smaller = PixelSize(width: result.image.width, height: result.image.height)
            let encoded = smaller == loaded.size ? original : try encode(result.image)
            let kept = encoded.count >= original.count
            let written = kept ? loaded.size : smaller
            after += written.pixelCount
            if variant.scale > largest.scale { largest = (loaded.size, written, variant.scale) }
            bytesAfter += kept ? original.count : encoded.count
            files.append((name, kept ? original : encoded))
            if kept { continue }
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
        return Optimizer.Report(input: input, output: out, kind: .imageSet, before: largest.before, after: largest.after,
                                insets: nil, equalModes: ResizeMode.allCases.filter(modes.contains), checksPerMode: checks,
                                bytesBefore: bytesBefore, bytesAfter: bytesAfter,
                                defaultModeLost: nil)
    }

    static func encode(_ image: PremultipliedImage) throws -> Data {
        try PNGEncoder.encode(image, compression: .small)
    }

    /// Writes the folder under a hidden name beside `path`, then swaps it in
    /// (`RENAME_EXCHANGE`, so the set is never missing) and removes the old one.
    /// Something at `path` that is not an image set glslice could have written
    /// (a file, a device, a link, or a folder holding anything but
    /// `Contents.json` and the images it names) is refused, never moved or deleted.
    static func writeFolder(_ path: String, files: [(name: String, data: Data)]) throws {
        let existing = try replaceableFiles(at: path)
        let fm = FileManager.default
        let (parent, name) = OutputFile.split(path)
        let temporary = parent + "/" + OutputFile.temporaryPrefix + name + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        guard mkdir(temporary, 0o755) == 0 else {
            throw FileErrors.cannotCreateFolderBeside(path, systemError())
        }
        do {
            for file in files { try OutputFile.write(file.data, to: temporary + "/" + file.name) }
            guard let existing else {
                guard rename(temporary, path) == 0 else { throw FileErrors.cannotRenameIntoPlace(path, systemError()) }
                return
            }
            guard gs_exchange(temporary, path) == 0 else {
                throw FileErrors.cannotRenameIntoPlace(path, systemError())
            }
            // `temporary` now holds the old set: only the files checked above, then the folder.
            for old in existing { unlink(temporary + "/" + old) }
            rmdir(temporary)
        } catch {
            try? fm.removeItem(atPath: temporary)
            throw error
        }
    }

    /// The files of the image set at `path` that a new one may replace; nil
    /// when nothing is there. Throws when what is there is not such a set.
    static func replaceableFiles(at path: String) throws -> [String]? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw FileErrors.notAnImageSetFolder(path)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let contents = try? ImageSet.readContents(path + "/Contents.json")
        let named = Set(contents.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            .flatMap { $0["images"] as? [[String: Any]] }?.compactMap { $0["filename"] as? String } ?? [])
        for entry in names {
            var status = stat()
            guard entry == "Contents.json" || named.contains(entry),
                  lstat(path + "/" + entry, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                throw FileErrors.holdsForeignFile(path, entry)
            }
        }
        return names
    }
}
