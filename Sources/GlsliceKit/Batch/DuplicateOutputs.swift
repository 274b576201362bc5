import Foundation

/// Which manifest lines repeat an earlier line's output (two jobs writing one
/// file would race, so the later line is refused), found in memory that does
/// not grow with the manifest's length.
///
/// A manifest that is a regular file is read ahead, before any job runs:
/// 1. every output key goes into a Bloom filter sized from the line count
///    (24 bits a line, at most 16 MiB); a key whose bits were all set already
///    is a suspect: a real repeat, or rarely a false one;
/// 2. a second read keeps the first line of each suspect key, and records the
///    lines that repeat it.
/// What is kept is the filter plus one entry per repeated (or falsely
/// suspected) output. Past about 5 million lines a shard the filter is full
/// enough that suspects grow: split such a manifest with `--shard`.
///
/// A pipe or FIFO cannot be read twice, so there every key is kept as it is
/// read (about 48 bytes a line).
struct DuplicateOutputs {
    /// Line → the earlier line whose output it repeats (read ahead).
    private var repeats: [Int: Int] = [:]
    /// Key → first line, for a manifest read once.
    private var streamed: [Int: Int]?
    private var keys = OutputKeys()

    /// The most bits the filter takes (16 MiB).
    static let maxFilterBits = 1 << 27

    /// Reads ahead when `path` is a regular file; else keys are kept as read.
    /// `filterBits` overrides the filter's size (tests make it tiny, so most keys are false suspects).
    init(manifest reader: ManifestReader, shard: Shard, outputScope: FileScope?, filterBits: Int? = nil) {
        var status = stat()
        guard stat(reader.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let lines = Self.reopen(reader).map({ Self.ownedLines($0, shard: shard) }),
              let first = Self.reopen(reader), let second = Self.reopen(reader) else {
            streamed = [:]
            return
        }
        var filter = BloomFilter(bits: filterBits ?? min(Self.maxFilterBits, max(1 << 12, lines * 24)))
        var suspects = Set<Int>()
        var readAhead = OutputKeys()
        Self.forEachKey(first, shard: shard, outputScope: outputScope, keys: &readAhead) { _, key, _ in
            if filter.insert(key) { suspects.insert(key) }
        }
        filter = BloomFilter(bits: 64) // the filter's memory goes before the second read
        var firstLine: [Int: Int] = [:]
        Self.forEachKey(second, shard: shard, outputScope: outputScope, keys: &readAhead) { line, key, text in
            // Only a suspect's line is decoded whole: a line the main read will refuse repeats nothing.
            guard suspects.contains(key), (try? second.job(line: line, text: text)) != nil else { return }
            if let earlier = firstLine[key] { repeats[line] = earlier } else { firstLine[key] = line }
        }
    }

    /// The earlier line whose output `job` repeats, or nil.
    mutating func earlierLine(for job: ManifestJob, outputScope: FileScope?) -> Int? {
        guard streamed != nil else { return repeats[job.line] }
        let key = keys.key(for: job, outputScope: outputScope)
        if let earlier = streamed?[key] { return earlier }
        streamed?[key] = job.line
        return nil
    }

    private static func reopen(_ reader: ManifestReader) -> ManifestReader? {
        try? ManifestReader(path: reader.path, outputFolder: reader.outputs.url.path, allowOutside: reader.outputs.allowOutside,
                            defaults: reader.defaults)
    }

    private static func ownedLines(_ reader: ManifestReader, shard: Shard) -> Int {
        var count = 0
        while let (number, _) = reader.nextLine() {
            if shard.owns(number - 1) { count += 1 }
        }
        return count
    }

    /// Each of this shard's lines that names an output, with its output key
    /// (found without decoding the request; bad lines are the main read's to report).
    private static func forEachKey(_ reader: ManifestReader, shard: Shard, outputScope: FileScope?, keys: inout OutputKeys,
                                   _ body: (_ line: Int, _ key: Int, _ text: Data) -> Void) {
        while let (number, text) = reader.nextLine() {
            guard shard.owns(number - 1), let (output, inside) = reader.output(text: text) else { continue }
            body(number, keys.key(output: output, inside: inside, outputScope: outputScope), text)
        }
    }
}
