import Foundation

/// One manifest line made ready: paths resolved, options validated.
public struct ManifestJob: Sendable {
    /// 1-based line number in the manifest.
    public var line: Int
    public var input: String
    public var output: String
    public var options: RenderOptions
}

/// Reads a JSON-lines manifest one line at a time, so memory does not grow
/// with its length. Each non-blank line is a job; its index for sharding is
/// its line number − 1.
public final class ManifestReader: @unchecked Sendable {
    public let path: String
    private let handle: FileHandle
    private var buffer = Data()
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    /// Relative inputs resolve against the manifest's folder.
    let manifestFolder: URL
    /// Relative outputs resolve against this (the `--out-dir`, else the manifest's folder).
    let outputFolder: URL
    let limits: Limits

    public init(path: String, outputFolder: String? = nil, limits: Limits = Limits()) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: path) else {
            throw GlsliceError(.noInput, file: path, "no such manifest file")
        }
        self.handle = handle
        manifestFolder = URL(fileURLWithPath: path).deletingLastPathComponent()
        self.outputFolder = outputFolder.map { URL(fileURLWithPath: $0) } ?? manifestFolder
        self.limits = limits
    }

    deinit { try? handle.close() }

    /// The next non-blank line, or nil at the end.
    public func nextLine() -> (number: Int, text: Data)? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                lineNumber += 1
                var text = buffer[start..<newline]
                start = newline + 1
                if text.last == 0x0D { text = text.dropLast() }
                if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                return (lineNumber, Data(text))
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                lineNumber += 1
                let text = Data(buffer[start...])
                start = buffer.count
                if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
                return (lineNumber, text)
            }
            // Keep only the unread tail, then read more.
            if start > 0 {
                buffer = Data(buffer[start...])
                start = 0
            }
            let chunk = handle.readData(ofLength: 1 << 16)
            if chunk.isEmpty { atEnd = true } else { buffer.append(chunk) }
        }
    }

    /// Turns one line into a job, or an error that names the line.
    public func job(line: Int, text: Data) throws -> ManifestJob {
        do {
            let object: Any
            do {
                object = try JSONSerialization.jsonObject(with: text)
            } catch {
                throw GlsliceError(.usage, "not valid JSON")
            }
            guard let fields = object as? [String: Any] else {
                throw GlsliceError(.usage, "each line must be a JSON object")
            }
            return try job(line: line, fields: fields)
        } catch let error as GlsliceError {
            var located = error
            located.file = "\(path):\(line)"
            if let file = error.file { located.message = "\(file): \(error.message)" }
            throw located
        }
    }

    static let knownKeys: Set<String> = ["input", "output", "size", "pixels", "insets", "scale", "source-scale",
                                         "mode", "mode-x", "mode-y", "filter", "center", "compression"]

    private func job(line: Int, fields: [String: Any]) throws -> ManifestJob {
        if let unknown = fields.keys.filter({ !Self.knownKeys.contains($0) }).sorted().first {
            throw GlsliceError(.usage, "unknown key '\(unknown)' (known: \(Self.knownKeys.sorted().joined(separator: ", ")))")
        }
        guard let input = fields["input"] as? String, !input.isEmpty else { throw GlsliceError(.usage, "missing \"input\"") }
        guard let output = fields["output"] as? String, !output.isEmpty else { throw GlsliceError(.usage, "missing \"output\"") }
        var request = RenderRequest()
        request.size = try pair(fields["size"], key: "size")
        request.pixels = try pair(fields["pixels"], key: "pixels")
        request.insets = try list(fields["insets"], key: "insets")
        request.scale = try scalar(fields["scale"], key: "scale")
        request.sourceScale = try scalar(fields["source-scale"], key: "source-scale")
        request.mode = try text(fields["mode"], key: "mode")
        request.modeX = try text(fields["mode-x"], key: "mode-x")
        request.modeY = try text(fields["mode-y"], key: "mode-y")
        request.filter = try text(fields["filter"], key: "filter")
        request.compression = try text(fields["compression"], key: "compression")
        request.center = try flag(fields["center"], key: "center") ?? true
        request.limits = limits
        return ManifestJob(line: line, input: resolve(input, against: manifestFolder),
                           output: resolve(output, against: outputFolder), options: try request.options())
    }

    private func resolve(_ path: String, against folder: URL) -> String {
        path.hasPrefix("/") ? path : folder.appendingPathComponent(path).path
    }

    private func number(_ value: Any) -> String? {
        guard let n = value as? NSNumber, !isBool(n) else { return nil }
        return formatNumber(n.doubleValue)
    }

    /// JSONSerialization gives booleans as NSNumbers of ObjC type "c" (char).
    private func isBool(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }

    private func text(_ value: Any?, key: String) throws -> String? {
        guard let value else { return nil }
        guard let text = value as? String else { throw GlsliceError(.usage, "\"\(key)\" must be a string") }
        return text
    }

    private func scalar(_ value: Any?, key: String) throws -> String? {
        guard let value else { return nil }
        if let text = value as? String { return text }
        if let n = number(value) { return n }
        throw GlsliceError(.usage, "\"\(key)\" must be a number or a string")
    }

    /// `"200x44"` or `[200, 44]`.
    private func pair(_ value: Any?, key: String) throws -> String? {
        guard let value else { return nil }
        if let text = value as? String { return text }
        if let array = value as? [Any], array.count == 2, let w = number(array[0]), let h = number(array[1]) {
            return "\(w)x\(h)"
        }
        throw GlsliceError(.usage, "\"\(key)\" must be \"WxH\" or [W, H]")
    }

    /// `"10,12,10,12"`, `[10, 12, 10, 12]` or `10`.
    private func list(_ value: Any?, key: String) throws -> String? {
        guard let value else { return nil }
        if let text = value as? String { return text }
        if let n = number(value) { return n }
        if let array = value as? [Any] {
            let values = array.compactMap(number)
            if values.count == array.count { return values.joined(separator: ",") }
        }
        throw GlsliceError(.usage, "\"\(key)\" must be \"T,L,B,R\", [T, L, B, R] or a number")
    }

    private func flag(_ value: Any?, key: String) throws -> Bool? {
        guard let value else { return nil }
        if let text = value as? String {
            switch text.lowercased() {
            case "true", "on", "yes": return true
            case "false", "off", "no": return false
            default: break
            }
        }
        if let n = value as? NSNumber, isBool(n) { return n.boolValue }
        throw GlsliceError(.usage, "\"\(key)\" must be true or false")
    }
}
