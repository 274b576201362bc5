/// One option of a render: a `RenderRequest` key. The same word is a
/// manifest key, a `render` flag (`--` before it) and a query parameter, so an
/// error names its option by this and each front end spells it (`OptionStyle`).
public enum RequestOption: String, CodingKey, CaseIterable, Sendable {
    case size, pixels, scale, insets, lattice
    case sourceScale = "source-scale"
    case mode
    case modeX = "mode-x"
    case modeY = "mode-y"
    case filter, center, compression, small, format
    case borderWidth = "border-width"
    case outset
}
