/// How a front end spells a request option in its messages.
public enum OptionStyle: Sendable {
    /// `--source-scale`, as `render` takes it.
    case flag
    /// `"source-scale"`, as a manifest line's key.
    case manifestKey
    /// `source-scale`, as a URL's query parameter.
    case queryParameter

    public func name(_ option: RequestOption) -> String {
        switch self {
        case .flag: "--" + option.rawValue
        case .manifestKey: "\"" + option.rawValue + "\""
        case .queryParameter: option.rawValue
        }
    }
}
