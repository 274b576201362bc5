/// `batch`'s render options (`--compression small`, `--mode tile`, …): defaults for
/// every manifest line, each as the command line wrote it. A line's own key wins,
/// and with it its group: a line's size or pixels, its mode or mode-x/mode-y, its
/// insets or lattice replace the defaults' of that group (they say one thing together).
package struct RequestDefaults: Sendable, Equatable {
    let texts: [RequestOption: String]

    package static let none = RequestDefaults(checked: [:])

    private init(checked texts: [RequestOption: String]) { self.texts = texts }

    /// Checks each value as `render` would, naming a bad one by its flag.
    package init(texts: [RequestOption: String]) throws {
        var probe = texts
        if probe[.size] == nil && probe[.pixels] == nil { probe[.pixels] = "1x1" } // a size of its own is not needed
        _ = try RenderRequest(texts: probe, style: .flag)
        self.texts = texts
    }

    private static let groups: [Set<RequestOption>] = [[.size, .pixels], [.mode, .modeX, .modeY], [.insets, .lattice]]

    /// `line`'s texts over these defaults.
    func under(_ line: [RequestOption: String]) -> [RequestOption: String] {
        var merged = line
        for (key, value) in texts where line[key] == nil {
            let group = Self.groups.first { $0.contains(key) } ?? [key]
            if group.allSatisfy({ line[$0] == nil }) { merged[key] = value }
        }
        return merged
    }

    /// Where `ManifestEntry`'s decoder finds them.
    static let userInfoKey = CodingUserInfoKey(rawValue: "glslice.requestDefaults")!
}
