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
    /// Several stretchable runs per axis for a plain PNG (`--lattice`); nil means `insets`.
    public var lattice: LatticeRuns?
    /// Source scale; nil means the file name's `@Nx`, else 1.
    public var sourceScale: Double?
    public var modes: PerAxis<ResizeMode>
    public var filter: Filter
    public var fillCenter: Bool
    public var compression: Compression
    /// What an axis shorter than its caps does.
    public var small: SmallTarget
    /// CSS `border-image-width`: the caps drawn this wide, in output points,
    /// whatever their slice (the corner scale); nil means `slice × k`.
    public var borderWidth: Insets?
    /// CSS `border-image-outset`: the image reaches this far past the box on
    /// each side, in output points; the output is the box plus these.
    public var outset: Insets?
    /// The output's file format; nil means the one its name says, else PNG (`outputFormat(for:)`).
    public var format: ImageFormat?

    public init(size: OutputSize, outputScale: Double? = nil, insets: Insets = .zero, lattice: LatticeRuns? = nil,
                sourceScale: Double? = nil, modes: PerAxis<ResizeMode> = PerAxis(both: .auto),
                filter: Filter = .linear, fillCenter: Bool = true, compression: Compression = .default,
                small: SmallTarget = .proportional, format: ImageFormat? = nil,
                borderWidth: Insets? = nil, outset: Insets? = nil) {
        self.size = size
        self.outputScale = outputScale
        self.insets = insets
        self.lattice = lattice
        self.sourceScale = sourceScale
        self.modes = modes
        self.filter = filter
        self.fillCenter = fillCenter
        self.compression = compression
        self.small = small
        self.format = format
        self.borderWidth = borderWidth
        self.outset = outset
    }

    /// The manifest's keys, which are also `render`'s flags and serve's query parameters.
    public typealias CodingKeys = RequestOption

    /// The format an output at `path` is written in: `format` when given (a
    /// name that says another is refused), else the name's, else PNG. A name
    /// glslice cannot write (`.jpg`) is refused either way.
    func outputFormat(for path: String) throws -> ImageFormat {
        let named = try ImageFormat.named(path)
        guard let format else { return named ?? .png }
        if let named, named != format {
            throw UsageErrors.formatContradictsName(path, format: format.rawValue, named: named.rawValue)
        }
        return format
    }

    /// The source scale for `path`: its `@Nx` suffix, else the option, else 1.
    /// An option that contradicts the suffix is refused rather than guessed at.
    func resolvedSourceScale(path: String) throws -> Double {
        try Scale.source(of: path, option: sourceScale)
    }
}

extension RenderRequest: Codable {
    /// Accepts each value as written on the command line (`"pixels": "200x44"`,
    /// `"insets": "10,12,10,12"`, `"scale": "2"`) or as JSON numbers and arrays
    /// (`[200, 44]`, `[10, 12, 10, 12]`, `2`, `"center": false`). A wrong value is
    /// thrown as a `.usage` `GlsliceError` with the message the CLI gives.
    public init(from decoder: any Decoder) throws {
        let defaults = decoder.userInfo[RequestDefaults.userInfoKey] as? RequestDefaults ?? .none
        try self.init(texts: defaults.under(try Self.texts(from: decoder)), style: .manifestKey)
    }

    /// A manifest line's option texts, each as a command line writes it.
    static func texts(from decoder: any Decoder) throws -> [RequestOption: String] {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var texts: [RequestOption: String] = [:]
        texts[.size] = try c.flexibleText(.size, pair: true)
        texts[.pixels] = try c.flexibleText(.pixels, pair: true)
        texts[.scale] = try c.flexibleText(.scale)
        texts[.insets] = try c.flexibleText(.insets, list: true)
        texts[.lattice] = try c.text(.lattice)
        texts[.borderWidth] = try c.flexibleText(.borderWidth, list: true)
        texts[.outset] = try c.flexibleText(.outset, list: true)
        texts[.sourceScale] = try c.flexibleText(.sourceScale)
        for key in [RequestOption.mode, .modeX, .modeY, .filter, .compression, .small, .format] { texts[key] = try c.text(key) }
        texts[.center] = try c.flag(.center).map { $0 ? "true" : "false" }
        return texts
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
        // Only when given, so that the digests of requests without one stay as they were.
        try c.encodeIfPresent(lattice?.formatted, forKey: .lattice)
        try c.encodeIfPresent(sourceScale, forKey: .sourceScale)
        try c.encode(modes.x, forKey: .modeX)
        try c.encode(modes.y, forKey: .modeY)
        try c.encode(filter, forKey: .filter)
        try c.encode(fillCenter, forKey: .center)
        try c.encode(compression, forKey: .compression)
        // Only when not the default, so that the digests of earlier requests stay as they were.
        if small != .proportional { try c.encode(small, forKey: .small) }
        if let format, format != .png { try c.encode(format, forKey: .format) }
        try c.encodeIfPresent(borderWidth?.formatted, forKey: .borderWidth)
        try c.encodeIfPresent(outset?.formatted, forKey: .outset)
    }

    /// This request as sorted-key JSON: the same request always gives the same text. Written
    /// here rather than by `JSONEncoder` (what `encode(to:)` gives with `.sortedKeys` and
    /// `.withoutEscapingSlashes`, as a test checks): every batch output's digest is made from it,
    /// and `JSONEncoder` took 12% of the bench manifest's encode stage.
    public var canonicalJSON: String { String(decoding: canonicalJSONBytes, as: UTF8.self) }

    /// `canonicalJSON`'s UTF-8, appended a field at a time to one array (strings joined a member
    /// at a time, and insets mapped and joined, were 14 µs of a job's 20 µs digest).
    var canonicalJSONBytes: [UInt8] {
        var json: [UInt8] = [UInt8(ascii: "{")]
        json.reserveCapacity(256)
        // In the order `.sortedKeys` writes the keys.
        func key(_ key: RequestOption) {
            if json.count > 1 { json.append(UInt8(ascii: ",")) }
            json.append(UInt8(ascii: "\""))
            json += key.rawValue.utf8
            json += [UInt8(ascii: "\""), UInt8(ascii: ":")]
        }
        func member(_ option: RequestOption, _ value: String?) {
            guard let value else { return }
            key(option)
            json += Self.quoted(value).utf8
        }
        func number(_ value: Double) { json += formatNumber(value).utf8 }
        /// Insets as `Insets.formatted` writes them, quoted.
        func insetMember(_ option: RequestOption, _ value: Insets?) {
            guard let value else { return }
            key(option)
            json.append(UInt8(ascii: "\""))
            for (k, side) in [value.top, value.left, value.bottom, value.right].enumerated() {
                if k > 0 { json.append(UInt8(ascii: ",")) }
                number(side)
            }
            json.append(UInt8(ascii: "\""))
        }
        /// `JSONEncoder`'s number: the Double's description, less a trailing ".0".
        func scale(_ option: RequestOption, _ value: Double?) {
            guard let value else { return }
            key(option)
            let text = value.description
            json += (text.hasSuffix(".0") ? text.dropLast(2) : text[...]).utf8
        }
        insetMember(.borderWidth, borderWidth)
        key(.center)
        json += (fillCenter ? "true" : "false").utf8
        member(.compression, compression.rawValue)
        member(.filter, filter.rawValue)
        member(.format, format.flatMap { $0 == .png ? nil : $0.rawValue })
        insetMember(.insets, insets)
        member(.lattice, lattice?.formatted)
        member(.modeX, modes.x.rawValue)
        member(.modeY, modes.y.rawValue)
        insetMember(.outset, outset)
        if case .pixels(let p) = size {
            key(.pixels)
            json += "\"\(p.width)x\(p.height)\"".utf8
        }
        scale(.scale, outputScale)
        if case .points(let w, let h) = size {
            key(.size)
            json.append(UInt8(ascii: "\""))
            number(w)
            json.append(UInt8(ascii: "x"))
            number(h)
            json.append(UInt8(ascii: "\""))
        }
        member(.small, small == .proportional ? nil : small.rawValue)
        scale(.sourceScale, sourceScale)
        json.append(UInt8(ascii: "}"))
        return json
    }

    /// A JSON string as `JSONEncoder` writes one (`/` left as it is).
    private static func quoted(_ value: String) -> String {
        // Keys, numbers and modes have nothing to escape: one concatenation.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + value + "\""
        }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20: out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension RenderRequest {
    /// A request from each option's text as written on a command line, a
    /// manifest line or a URL's query: the one parser all three go through.
    /// `style` spells the options in the one message that names two.
    public init(texts: [RequestOption: String], style: OptionStyle) throws {
        size = try OutputSize.parse(size: texts[.size], pixels: texts[.pixels], style: style)
        outputScale = try texts[.scale].map { try Scale.parse($0, option: .scale) }
        insets = try texts[.insets].map(Insets.init(parsing:)) ?? .zero
        lattice = try texts[.lattice].map(LatticeRuns.init(parsing:))
        // Refused here, where the texts are read, so batch refuses the pair among its defaults before any line.
        if lattice != nil && insets != .zero { throw UsageErrors.latticeWithInsets() }
        sourceScale = try texts[.sourceScale].map { try Scale.parse($0, option: .sourceScale) }
        let both = try texts[.mode].map(ResizeMode.init(parsing:)) ?? .auto
        modes = PerAxis(x: try texts[.modeX].map { try ResizeMode(parsing: $0, option: .modeX) } ?? both,
                        y: try texts[.modeY].map { try ResizeMode(parsing: $0, option: .modeY) } ?? both)
        filter = try texts[.filter].map(Filter.init(parsing:)) ?? .linear
        fillCenter = try texts[.center].map { try Self.truth($0, option: .center) } ?? true
        compression = try texts[.compression].map(Compression.init(parsing:)) ?? .default
        small = try texts[.small].map(SmallTarget.init(parsing:)) ?? .proportional
        format = try texts[.format].map(ImageFormat.init(parsing:))
        borderWidth = try texts[.borderWidth].map { try Insets(parsing: $0, option: .borderWidth) }
        outset = try texts[.outset].map { try Insets(parsing: $0, option: .outset) }
    }

    /// true, on, yes, false, off, no (any case).
    static func truth(_ text: String, option: RequestOption) throws -> Bool {
        switch text.lowercased() {
        case "true", "on", "yes": return true
        case "false", "off", "no": return false
        default: throw UsageErrors.notTrueOrFalse(option: option)
        }
    }
}

extension KeyedDecodingContainer where Key == RequestOption {
    /// A string value, or nil when the key is absent.
    func text(_ key: Key) throws -> String? {
        guard contains(key) else { return nil }
        guard let value = try? decode(String.self, forKey: key) else {
            throw UsageErrors.wrongJSONType(option: key, string: true)
        }
        return value
    }

    /// A value given as a string or as JSON numbers, turned into the
    /// command-line text: a number, `[W, H]` as `WxH` (`pair`), or a list as `a,b,c` (`list`).
    func flexibleText(_ key: Key, pair: Bool = false, list: Bool = false) throws -> String? {
        guard contains(key) else { return nil }
        if let text = try? decode(String.self, forKey: key) { return text }
        if !pair, let number = try? decode(Double.self, forKey: key) { return formatNumber(number) }
        if pair || list, let numbers = try? decode([Double].self, forKey: key), !pair || numbers.count == 2 {
            return numbers.map(formatNumber).joined(separator: pair ? "x" : ",")
        }
        throw UsageErrors.wrongJSONType(option: key, pair: pair, list: list)
    }

    /// `true`/`false`, or the strings true, on, yes, false, off, no.
    func flag(_ key: Key) throws -> Bool? {
        guard contains(key) else { return nil }
        if let value = try? decode(Bool.self, forKey: key) { return value }
        return try RenderRequest.truth((try? decode(String.self, forKey: key)) ?? "", option: key)
    }
}
