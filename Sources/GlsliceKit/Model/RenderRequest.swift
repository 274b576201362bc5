import Foundation

/// Everything one render is asked for, independent of the source and the backend.
///
/// This is the one option schema: `render`'s flags and a manifest line's keys
/// both end here, the manifest through `Codable` with the keys below, and a job
/// digest is this request encoded with sorted keys. Adding an option means a
/// property and its key here, and its flag in the CLI's `RenderOptionGroup`.
public struct RenderRequest: Sendable, Equatable {
    public var size: OutputSize
    /// Output scale `s_out`; nil means the source's scale, so caps copy pixel for pixel.
    public var outputScale: Double?
    public var insets: Insets
    /// Source scale; nil means the file name's `@Nx`, else 1.
    public var sourceScale: Double?
    public var modes: PerAxis<ResizeMode>
    public var filter: Filter
    public var fillCenter: Bool
    public var compression: Compression

    public init(size: OutputSize, outputScale: Double? = nil, insets: Insets = .zero,
                sourceScale: Double? = nil, modes: PerAxis<ResizeMode> = PerAxis(both: .auto),
                filter: Filter = .linear, fillCenter: Bool = true, compression: Compression = .default) {
        self.size = size
        self.outputScale = outputScale
        self.insets = insets
        self.sourceScale = sourceScale
        self.modes = modes
        self.filter = filter
        self.fillCenter = fillCenter
        self.compression = compression
    }

    /// The manifest's keys, spelled as `render`'s flags.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case size, pixels, scale, insets
        case sourceScale = "source-scale"
        case mode
        case modeX = "mode-x"
        case modeY = "mode-y"
        case filter, center, compression
    }

    /// The source scale for `path`: its `@Nx` suffix, else the option, else 1.
    /// An option that contradicts the suffix is refused rather than guessed at.
    public func resolvedSourceScale(path: String) throws -> Double {
        try Scale.source(of: path, option: sourceScale)
    }
}

extension RenderRequest: Codable {
    /// Accepts each value as written on the command line (`"pixels": "200x44"`,
    /// `"insets": "10,12,10,12"`, `"scale": "2"`) or as JSON numbers and arrays
    /// (`[200, 44]`, `[10, 12, 10, 12]`, `2`, `"center": false`). A wrong value is
    /// thrown as a `.usage` `GlsliceError` with the message the CLI gives.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let size = try c.flexibleText(.size, pair: true, "\"size\" must be \"WxH\" or [W, H]")
        let pixels = try c.flexibleText(.pixels, pair: true, "\"pixels\" must be \"WxH\" or [W, H]")
        self.size = try OutputSize.parse(size: size, pixels: pixels)
        outputScale = try c.flexibleText(.scale, "\"scale\" must be a number or a string")
            .map { try Scale.parse($0, option: "scale") }
        insets = try c.flexibleText(.insets, list: true, "\"insets\" must be \"T,L,B,R\", [T, L, B, R] or a number")
            .map(Insets.init(parsing:)) ?? .zero
        sourceScale = try c.flexibleText(.sourceScale, "\"source-scale\" must be a number or a string")
            .map { try Scale.parse($0, option: "source-scale") }
        let both = try c.text(.mode).map(ResizeMode.init(parsing:)) ?? .auto
        modes = PerAxis(x: try c.text(.modeX).map(ResizeMode.init(parsing:)) ?? both,
                        y: try c.text(.modeY).map(ResizeMode.init(parsing:)) ?? both)
        filter = try c.text(.filter).map(Filter.init(parsing:)) ?? .linear
        fillCenter = try c.flag(.center) ?? true
        compression = try c.text(.compression).map(Compression.init(parsing:)) ?? .default
    }

    /// The canonical form: both axis modes spelled out, every default written,
    /// so two requests that render the same bytes encode the same.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch size {
        case .points(let w, let h): try c.encode("\(formatNumber(w))x\(formatNumber(h))", forKey: .size)
        case .pixels(let p): try c.encode("\(p.width)x\(p.height)", forKey: .pixels)
        }
        try c.encodeIfPresent(outputScale, forKey: .scale)
        try c.encode(insets.formatted, forKey: .insets)
        try c.encodeIfPresent(sourceScale, forKey: .sourceScale)
        try c.encode(modes.x, forKey: .modeX)
        try c.encode(modes.y, forKey: .modeY)
        try c.encode(filter, forKey: .filter)
        try c.encode(fillCenter, forKey: .center)
        try c.encode(compression, forKey: .compression)
    }

    /// This request as sorted-key JSON: the same request always gives the same text.
    public var canonicalJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and booleans cannot fail.
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

extension KeyedDecodingContainer {
    /// A string value, or nil when the key is absent.
    func text(_ key: Key) throws -> String? {
        guard contains(key) else { return nil }
        guard let value = try? decode(String.self, forKey: key) else {
            throw GlsliceError(.usage, "\"\(key.stringValue)\" must be a string")
        }
        return value
    }

    /// A value given as a string or as JSON numbers, turned into the
    /// command-line text: a number, `[W, H]` as `WxH` (`pair`), or a list as `a,b,c` (`list`).
    func flexibleText(_ key: Key, pair: Bool = false, list: Bool = false, _ message: String) throws -> String? {
        guard contains(key) else { return nil }
        if let text = try? decode(String.self, forKey: key) { return text }
        if !pair, let number = try? decode(Double.self, forKey: key) { return formatNumber(number) }
        if pair || list, let numbers = try? decode([Double].self, forKey: key), !pair || numbers.count == 2 {
            return numbers.map(formatNumber).joined(separator: pair ? "x" : ",")
        }
        throw GlsliceError(.usage, message)
    }

    /// `true`/`false`, or the strings true, on, yes, false, off, no.
    func flag(_ key: Key) throws -> Bool? {
        guard contains(key) else { return nil }
        if let value = try? decode(Bool.self, forKey: key) { return value }
        switch (try? decode(String.self, forKey: key))?.lowercased() {
        case "true", "on", "yes": return true
        case "false", "off", "no": return false
        default: throw GlsliceError(.usage, "\"\(key.stringValue)\" must be true or false")
        }
    }
}
