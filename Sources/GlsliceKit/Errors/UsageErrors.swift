/// The words for a command line, manifest line or query that is wrong in
/// itself (`.usage`: exit 64, HTTP 400), each condition worded once here, as
/// swift-argument-parser words its errors in one generator. Callers say which
/// option; `GlsliceError.text(naming:)` spells it as each front end does.
package enum UsageErrors {
    // MARK: Values any option may have

    /// A number outside what `flag` takes.
    /// A whole-number option outside `range` (`flag` is the option's name, as typed).
    package static func outOfRange(_ flag: String, _ range: ClosedRange<Int>, got: Int) -> GlsliceError {
        GlsliceError(.usage, "\(flag) must be \(range.lowerBound) to \(range.upperBound), got \(got)")
    }
    /// A number of seconds outside `0...most`, or `(0, most]` when zero is not allowed.
    package static func secondsOutOfRange(_ flag: String, most: Int, zeroAllowed: Bool, got: Double) -> GlsliceError {
        GlsliceError(.usage, "\(flag) must be " + (zeroAllowed ? "0 to \(most)" : "more than 0 and at most \(most)") + " seconds, got \(got)")
    }
    package static func portOutOfRange(_ port: Int) -> GlsliceError {
        GlsliceError(.usage, "the port must be 0 to 65535, got \(port)")
    }
    /// An option (`--timeout`) that must be more than zero.
    package static func notPositive(_ flag: String) -> GlsliceError {
        GlsliceError(.usage, "\(flag) must be positive")
    }
    static func pixelLimitsNotPositive() -> GlsliceError {
        GlsliceError(.usage, "pixel limits must be positive")
    }
    static func scaleRatioNotPositive() -> GlsliceError {
        GlsliceError(.usage, "the scale ratio must be positive")
    }
    static func slurmCountAndStepNotPositive(count: Int, step: Int) -> GlsliceError {
        GlsliceError(.usage, "SLURM_ARRAY_TASK_COUNT=\(count) and SLURM_ARRAY_TASK_STEP=\(step) must be positive")
    }
    package static func notPositive(option: RequestOption, got text: String) -> GlsliceError {
        GlsliceError(.usage, option: option, "must be positive, got '\(text)'")
    }
    static func notAPositiveNumber(option: RequestOption, got text: String) -> GlsliceError {
        GlsliceError(.usage, option: option, "must be a positive number, got '\(text)'")
    }
    static func negative(option: RequestOption, got text: String) -> GlsliceError {
        GlsliceError(.usage, option: option, "must not be negative, got '\(text)'")
    }
    static func tooLarge(option: RequestOption) -> GlsliceError {
        GlsliceError(.usage, option: option, "is too large")
    }
    /// A word that is none of an option's choices, with the nearest offered;
    /// `subject` names an option outside `RequestOption` (`--backend`).
    /// `text` is none of `choices`: of a request option, or of the command-line option
    /// named `flag` (`--backend`, or what argument-parser reports).
    package static func notAChoice(_ text: String, of choices: [String], option: RequestOption? = nil,
                                   flag: String? = nil) -> GlsliceError {
        GlsliceError(.usage, option: option,
                     "\(flag.map { "\($0) " } ?? "")must be one of: \(choices.joined(separator: ", ")), got '\(text)'"
                     + didYouMean(text, choices))
    }
    static func notABackend(_ text: String, of choices: [String]) -> GlsliceError {
        notAChoice(text, of: choices, flag: "the backend")
    }
    private static func didYouMean(_ word: String, _ names: [String]) -> String {
        NearestName.to(word, among: names).map { "; did you mean '\($0)'?" } ?? ""
    }
    static func notTrueOrFalse(option: RequestOption) -> GlsliceError {
        GlsliceError(.usage, option: option, "must be true or false")
    }
    /// A manifest value of the wrong JSON type; what it may be follows from
    /// the option's shape (`pair`: a size, `list`: insets, else a number).
    static func wrongJSONType(option: RequestOption, pair: Bool = false, list: Bool = false,
                                      string: Bool = false) -> GlsliceError {
        let shape = string ? "a string"
            : pair ? "\"WxH\" or [W, H]"
            : list ? "\"T,L,B,R\", [T, L, B, R] or a number"
            : "a number or a string"
        return GlsliceError(.usage, option: option, "must be \(shape)")
    }

    // MARK: Sizes, scales, insets and the lattice

    static func noSize(_ size: String, _ pixels: String) -> GlsliceError {
        GlsliceError(.usage, "give the output size with \(size) WxH (points) or \(pixels) WxH")
    }
    static func sizeAndPixels(_ size: String, _ pixels: String) -> GlsliceError {
        GlsliceError(.usage, "\(size) and \(pixels) are alternatives; give one")
    }
    static func notWholePixels(option: RequestOption, got text: String) -> GlsliceError {
        GlsliceError(.usage, option: option, "must be whole numbers, got '\(text)'")
    }
    static func notASize(option: RequestOption, unit: String, got text: String) -> GlsliceError {
        GlsliceError(.usage, option: option, "must be WxH in \(unit), e.g. 200x44, got '\(text)'")
    }
    static func emptySize(_ points: String, scale: Double) -> GlsliceError {
        GlsliceError(.usage, option: .size, "\(points) pt at @\(formatNumber(scale))x is empty")
    }
    static func scaleContradictsName(_ path: String, given: Double, inferred: Double) -> GlsliceError {
        GlsliceError(.usage, file: path, option: .sourceScale,
                     "\(formatNumber(given)) contradicts the @\(formatNumber(inferred))x in the file name")
    }
    static func scaleRatio(output: Double, source: Double, ratio: Double) -> GlsliceError {
        GlsliceError(.usage,
                     "output scale @\(formatNumber(output))x over source scale @\(formatNumber(source))x is \(ratio), outside 1/64…64")
    }
    static func notInsets(option: RequestOption, got text: String) -> GlsliceError {
        GlsliceError(.usage, option: option, "must be T,L,B,R (top, left, bottom, right in points), got '\(text)'")
    }
    /// What is wrong with a `--lattice` text.
    enum LatticeFault {
        case noAxis, axisTwice(String), tooManyRuns(String, Int), notARun, negative, empty, outOfOrder(String)
    }
    static func notALattice(_ fault: LatticeFault, got text: String) -> GlsliceError {
        let why = switch fault {
        case .noAxis: "each part names an axis, x= or y="
        case .axisTwice(let axis): "\(axis) is given twice"
        case .tooManyRuns(let axis, let maximum): tooManyRuns(axis: axis, maximum: maximum).message
        case .notARun: "each run is START-END"
        case .negative: "runs must not be negative"
        case .empty: "a run must end after it starts"
        case .outOfOrder(let axis): "runs along \(axis) must be in order and apart (touching runs are one run)"
        }
        return GlsliceError(.usage, option: .lattice, "must be x=A-B,C-D;y=E-F (stretchable runs in points), \(why), got '\(text)'")
    }
    static func latticeWithInsets() -> GlsliceError {
        GlsliceError(.usage, option: .lattice, "cannot be given with insets: both say where the caps are")
    }
    /// Insets beside the lattice a source gives itself: a `.9.png`'s markers
    /// (which a request's runs may replace) or an image set's cap-insets.
    static func insetsBesideSourceLattice(fromMarkers: Bool) -> GlsliceError {
        GlsliceError(.usage, option: .insets, fromMarkers
            ? "cannot be given for a .9.png: its markers give its lattice; drop {option:insets}, or give {option:lattice} to replace the markers' runs"
            : "cannot be given for an image set: its cap-insets give its lattice; drop {option:insets} and {option:lattice}")
    }
    static func borderWidthNeedsOneBand(axis: String, bands: Int) -> GlsliceError {
        GlsliceError(.usage, option: .borderWidth,
                     "needs one stretchable part along \(axis) (insets or a 3×3 nine-patch), not \(bands)")
    }
    static func borderWidthOfEmptySlice(_ side: String, width: Double) -> GlsliceError {
        GlsliceError(.usage, option: .borderWidth,
                     "gives the \(side) cap \(formatNumber(width)) px but its slice is 0 px; give it insets, or a width of 0")
    }
    static func centreModeOfImageSet(_ mode: String) -> GlsliceError {
        GlsliceError(.usage, "an image set's centre is stretch or tile, not \(mode)")
    }
    /// The page's edited stretch runs (pixels of a `.9.png`'s artwork).
    package static func tooManyRuns(axis: String, maximum: Int) -> GlsliceError {
        GlsliceError(.usage, "more than \(maximum) runs along \(axis)")
    }
    package static func runsOutOfOrder(axis: String, length: Int) -> GlsliceError {
        GlsliceError(.usage, "runs along \(axis) must be [start, end] pixels of the \(length) px artwork, in order and apart")
    }

    // MARK: Files named on the command line

    static func formatContradictsName(_ path: String, format: String, named ext: String) -> GlsliceError {
        GlsliceError(.usage, file: path, option: .format, "is \(format) but the output is named .\(ext)")
    }
    static func unwritableFormat(_ path: String, ext: String) -> GlsliceError {
        GlsliceError(.usage, file: path, "glslice writes PNG and WebP (lossless), not .\(ext); name the output .png or .webp")
    }
    /// `-` named for both of compare's images.
    package static func standardInputForBoth() -> GlsliceError {
        GlsliceError(.usage, "'-' (standard input) can be only one of the two images")
    }
    /// `-` named more than once among preview's sources.
    static func standardInputTwice() -> GlsliceError {
        GlsliceError(.usage, "'-' (standard input) is given more than once; it can be read only once")
    }
    static func imageSetToStandardOutput(_ path: String) -> GlsliceError {
        GlsliceError(.usage, file: path, "an image set is a folder of files; it cannot go to standard output (give -o NAME.imageset)")
    }
    static func imageSetOutputName(_ path: String) -> GlsliceError {
        GlsliceError(.usage, file: path, "the output of an image set must be a folder named NAME.imageset")
    }
    static func ninePatchOutputName(_ path: String, inputIsNinePatch: Bool) -> GlsliceError {
        GlsliceError(.usage, file: path, inputIsNinePatch
            ? "a nine-patch's output must be named NAME.9.png (a compiled npTc source is written as a raw .9.png)"
            : "a .9.png output needs a nine-patch input")
    }
    package static func standardOutputIsATerminal() -> GlsliceError {
        GlsliceError(.usage, "-o -: standard output is a terminal; redirect it to a file (-o - > out.png) or a pipe (-o - | …), or give -o NAME.png")
    }
    static func resultsIsTheManifest(_ path: String) -> GlsliceError {
        GlsliceError(.usage, file: path, "--results names the manifest itself; give another file")
    }
    static func resultsIsForeign(_ path: String) -> GlsliceError {
        GlsliceError(.usage, file: path, "--results names a file that is not a glslice results file; refusing to overwrite it")
    }

    // MARK: Manifests and shards

    static func manifestLineTooLong(limit: Int) -> GlsliceError {
        GlsliceError(.usage, "the line is longer than \(limit >> 20) MiB, the limit for one job")
    }
    static func notJSON(column: Int?) -> GlsliceError {
        GlsliceError(.usage, column.map { "not valid JSON at column \($0)" } ?? "not valid JSON")
    }
    /// Where a line stops being JSON and what could come there (`ManifestReader.jsonFault`).
    static func notJSON(column: Int, expected: String, found: String) -> GlsliceError {
        GlsliceError(.usage, "not valid JSON at column \(column): expected \(expected), found \(found)")
    }
    /// JSON is UTF-8 (RFC 8259 §8.1); `offset` counts bytes from the line's start.
    static func notUTF8(byteOffset offset: Int) -> GlsliceError {
        GlsliceError(.usage, "not valid UTF-8 at byte \(offset) of the line (JSON must be UTF-8)")
    }
    /// The kernel ends a path at its first NUL, so the file written would not be the one named.
    static func nulInPath(key: String) -> GlsliceError {
        GlsliceError(.usage, "\"\(key)\" holds a NUL character (\\u0000), which no file name can")
    }
    static func notAJSONObject() -> GlsliceError { GlsliceError(.usage, "each line must be a JSON object") }
    /// A key or query parameter nobody reads (`what`: "key", "parameter").
    package static func unknownKey(_ what: String, _ name: String, known: [String]) -> GlsliceError {
        GlsliceError(.usage, "unknown \(what) '\(name)' (known: \(known.joined(separator: ", ")))" + didYouMean(name, known))
    }
    package static func givenTwice(_ what: String, _ name: String) -> GlsliceError {
        GlsliceError(.usage, "\(what) '\(name)' is given twice")
    }
    static func missingKey(_ key: String) -> GlsliceError { GlsliceError(.usage, "missing \"\(key)\"") }
    static func outsideOutputFolder(_ output: String, root: String) -> GlsliceError {
        GlsliceError(.usage, "output '\(output)' is outside the output folder \(root); give --allow-outside-out-dir to allow it")
    }
    /// A manifest output ending in `/`, `/.` or `/..` (`ending`), or that is `.` or `..` itself.
    static func outputIsAFolderName(_ output: String, ending: String) -> GlsliceError {
        let folder = output.hasSuffix("/") ? output : output + "/"
        let said = output.contains("/") ? "ends in '\(ending)'" : "is '\(output)'"
        return GlsliceError(.usage, "output '\(output)' \(said), a folder; name the file to write (e.g. '\(folder)image.png')")
    }
    static func sharedOutput(_ output: String, earlierLine: Int) -> GlsliceError {
        GlsliceError(.usage, "output \(output) is also line \(earlierLine)'s output; each job needs its own")
    }
    static func notAShard(_ text: String) -> GlsliceError {
        GlsliceError(.usage, "shard must be K/N with 0 ≤ K < N, e.g. 0/4, got '\(text)'")
    }
    /// One of a pair of environment variables a scheduler sets together is missing.
    /// The scheduler that sets a pair of shard variables.
    enum Scheduler: Sendable {
        case kubernetes, slurm
    }
    static func halfAnEnvironmentPair(set: String, missing: String, by scheduler: Scheduler) -> GlsliceError {
        switch scheduler {
        case .kubernetes:
            // Kubernetes sets only the index (deploy/README.md); the count is the Job's to add.
            GlsliceError(.usage, "\(set) is set (Kubernetes sets it for an Indexed Job) but \(missing) is not: "
                + "add \(missing) to the Job's env with its spec.completions, or pass --shard K/N")
        case .slurm:
            GlsliceError(.usage, "\(set) is set but \(missing) is not (Slurm sets both for an array job); pass --shard K/N")
        }
    }
    static func kubernetesIndexOutOfRange(index: Int, count: Int) -> GlsliceError {
        count <= 0
            ? GlsliceError(.usage, "JOB_COMPLETIONS is \(count); an Indexed Job has at least 1 completion (its spec.completions)")
            : GlsliceError(.usage, "JOB_COMPLETION_INDEX is \(index), outside 0..<\(count) (JOB_COMPLETIONS=\(count)): "
                + "set JOB_COMPLETIONS to the Job's spec.completions, or pass --shard K/N")
    }
    static func environmentNotANumber(_ key: String, _ text: String) -> GlsliceError {
        GlsliceError(.usage, "\(key) is '\(text)', not a whole number")
    }
    static func irregularSlurmArray(id: Int, count: Int, minimum: Int, maximum: Int, step: Int) -> GlsliceError {
        GlsliceError(.usage,
            "the Slurm array is not a regular range (task \(id) of \(count) tasks from \(minimum) to \(maximum), step \(step)), "
            + "so its tasks cannot be numbered 0…\(count - 1); submit it as --array=MIN-MAX[:STEP], e.g. --array=0-\(count - 1)")
    }
    package static func gpuIndex(_ text: String) -> GlsliceError {
        GlsliceError(.usage, "GLSLICE_GPU must be an EGL device index (see glslice doctor), got '\(text)'")
    }

    // MARK: The server

    package static func notABind(_ text: String) -> GlsliceError {
        GlsliceError(.usage, "--bind must be HOST:PORT (e.g. 127.0.0.1:8080, [::1]:8080, 0.0.0.0:8080), got '\(text)'")
    }
    package static func bindResolvesToNothing(_ host: String) -> GlsliceError {
        GlsliceError(.usage, "--bind: '\(host)' resolves to no address")
    }
    package static func unresolvedBind(_ host: String, _ reason: String) -> GlsliceError {
        GlsliceError(.usage, "--bind: cannot resolve '\(host)': \(reason)")
    }
    package static func notAHostName(_ name: String) -> GlsliceError {
        GlsliceError(.usage, "--host-name must be a bare name (example.com, no port or scheme), got '\(name)'")
    }
    package static func publicWithoutKey(_ host: String, address: String) -> GlsliceError {
        GlsliceError(.usage, "without --key-file the server listens on loopback only (127.0.0.1, ::1, localhost), not \(host == address ? host : "\(host) (\(address))"); "
            + "give --key-file K to require signed URLs, or --insecure-public to serve anyone")
    }
    package static func previewWithKey() -> GlsliceError {
        GlsliceError(.usage, "the preview page asks for unsigned renders, so it cannot run with --key-file; run a second server on loopback without a key for previews")
    }
    package static func shortKey(_ bytes: Int, minimum: Int) -> GlsliceError {
        GlsliceError(.usage, "the key is \(bytes) bytes; use at least \(minimum) (e.g. head -c 32 /dev/urandom | base64 > KEY)")
    }
    package static func notARenderURL(_ url: String) -> GlsliceError {
        GlsliceError(.usage, "'\(url)' is not a render URL: its path must start with /render/")
    }
    /// `part`: "query" or "path".
    package static func malformedEscape(_ url: String, in part: String) -> GlsliceError {
        GlsliceError(.usage, "'\(url)' has a malformed %-escape in its \(part)")
    }

    // MARK: Commands

    package static func notUTF8Argument(_ index: Int, shown: String) -> GlsliceError {
        GlsliceError(.usage, "argument \(index) ('\(shown)') is not valid UTF-8; glslice needs UTF-8 file names (rename the file, or link it under a UTF-8 name)")
    }
    /// A first word that is no command: the nearest command offered, else the list.
    package static func unknownCommand(_ word: String, commands: [String]) -> GlsliceError {
        let nearest = didYouMean(word, commands)
        return GlsliceError(.usage, "unknown command '\(word)'"
                            + (nearest.isEmpty ? " (commands: \(commands.joined(separator: ", ")); see 'glslice --help')" : nearest))
    }
    package static func noSources() -> GlsliceError { GlsliceError(.usage, "give at least one source") }
}
