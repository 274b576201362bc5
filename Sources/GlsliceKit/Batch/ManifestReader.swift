import Foundation
import Synchronization

/// Reads a JSON-lines manifest one line at a time, so memory does not grow
/// with its length. Each non-blank line is a job; its index for sharding is
/// its line number − 1. A batch's feeder thread reads it; the reading state
/// sits behind a mutex, so the compiler checks the hand-over.
package final class ManifestReader: Sendable {
    package let path: String
    /// Relative inputs resolve against the manifest's folder.
    let manifestFolder: URL
    /// Where outputs go (the `--out-dir`, else the manifest's folder), and how they are placed there.
    package let outputs: OutputFolder
    private let state: Locked<LineState>

    /// The longest line taken as a job. Longer lines are reported, not parsed:
    /// a job is a few hundred bytes, and a runaway line must not grow memory.
    static let maxLineBytes = 1 << 20

    /// Where reading stands: the file, the unread bytes, the line count.
    fileprivate struct LineState {
        var descriptor: Int32
        var buffer: [UInt8] = []
        /// The unread part starts here.
        var start = 0
        /// Bytes before this index (from `start`) hold no newline: each byte is scanned once.
        var scanned = 0
        var atEnd = false
        var lineNumber = 0
    }

    /// What every line takes where it says nothing (`batch`'s render options).
    let defaults: RequestDefaults

    /// `path` `-` reads standard input; its relative inputs resolve against the current folder.
    package init(path: String, outputFolder: String? = nil, allowOutside: Bool = false, defaults: RequestDefaults = .none) throws {
        self.defaults = defaults
        let isStandardInput = path == "-"
        self.path = isStandardInput ? "<stdin>" : path
        let fd = isStandardInput ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FileErrors.cannotOpen(self.path, errno)
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else {
            close(fd)
            throw FileErrors.isAFolderNotAFile(path)
        }
        state = Locked(LineState(descriptor: fd))
        manifestFolder = isStandardInput ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            : URL(fileURLWithPath: path).deletingLastPathComponent()
        outputs = OutputFolder(given: outputFolder, manifestFolder: manifestFolder, allowOutside: allowOutside)
    }

    deinit { state.withLock { _ = close($0.descriptor) } }

    /// The next non-blank line, or nil at the end. A line over `maxLineBytes`
    /// comes back empty, so that `job(line:text:)` reports it by number.
    package func nextLine() -> (number: Int, text: Data)? {
        state.withLock { $0.nextLine() }
    }

    /// Turns one line into a job, or an error that names the line.
    package func job(line: Int, text: Data) throws -> ManifestJob {
        do {
            guard !text.isEmpty else {
                throw UsageErrors.manifestLineTooLong(limit: Self.maxLineBytes)
            }
            if let offset = Self.firstInvalidUTF8(text) {
                throw UsageErrors.notUTF8(byteOffset: offset)
            }
            let entry: ManifestEntry
            do {
                let decoder = JSONDecoder()
                decoder.userInfo[RequestDefaults.userInfoKey] = defaults
                entry = try decoder.decode(ManifestEntry.self, from: text)
            } catch let error as GlsliceError {
                throw error
            } catch {
                if let fault = Self.jsonFault(text) {
                    throw UsageErrors.notJSON(column: fault.column, expected: fault.expected, found: fault.found)
                }
                throw UsageErrors.notJSON(column: Self.jsonErrorColumn(text))
            }
            for (key, path) in [("input", entry.input), ("output", entry.output)] where path.utf8.contains(0) {
                throw UsageErrors.nulInPath(key: key)
            }
            let (output, inside) = try outputs.place(entry.output)
            // The format is settled here, so that it is part of the job's digest.
            var request = entry.request
            request.format = try request.outputFormat(for: entry.output)
            return ManifestJob(line: line, input: OutputFolder.resolve(entry.input, against: manifestFolder),
                               output: output, request: request, outputInside: inside)
        } catch let error as GlsliceError {
            var located = error
            located.manifestLine = ManifestLine(manifest: path, number: line)
            throw located
        }
    }

    /// Where a line that is not JSON goes wrong, 1-based, as Foundation's parser
    /// finds it ("around character 15", 0-based); past its end where the line ends
    /// too soon; nil where the parser does not say.
    static func jsonErrorColumn(_ text: Data) -> Int? {
        do {
            _ = try JSONSerialization.jsonObject(with: text, options: [.fragmentsAllowed])
            return nil
        } catch {
            let said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            if said.contains("end of file") { return text.count + 1 }
            guard let range = said.range(of: "character "),
                  let at = Int(said[range.upperBound...].prefix { $0.isNumber }) else { return nil }
            return at + 1
        }
    }

    /// The byte offset of the first byte that is not valid UTF-8, or nil.
    static func firstInvalidUTF8(_ text: Data) -> Int? {
        text.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            // Fast path: plain ASCII, which nearly every manifest is.
            if !bytes.contains(where: { $0 >= 0x80 }) { return nil }
            var decoder = UTF8()
            var iterator = bytes.makeIterator()
            var offset = 0
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): offset += UTF8.width(scalar)
                case .emptyInput: return nil
                case .error: return offset
                }
            }
        }
    }

    /// Only a line's output, placed as `job(line:text:)` places it, or nil for
    /// a line that has none: the duplicate check's read-ahead, which skips
    /// decoding the request (the main read reports what else is wrong).
    func output(text: Data) -> (output: String, inside: String?)? {
        guard !text.isEmpty, Self.firstInvalidUTF8(text) == nil,
              let entry = try? JSONDecoder().decode(ManifestEntry.OutputOnly.self, from: text),
              !entry.output.utf8.contains(0) else { return nil }
        return try? outputs.place(entry.output)
    }
}

/// One manifest line as JSON: `input`, `output`, and the `RenderRequest` keys.
extension ManifestReader.LineState {
    mutating func nextLine() -> (number: Int, text: Data)? {
        var overLimit = false
        while true {
            if let newline = buffer[(start + scanned)...].firstIndex(of: 0x0A) {
                lineNumber += 1
                var end = newline
                let begin = start
                start = newline + 1
                scanned = 0
                if overLimit { return (lineNumber, Data()) }
                if end > begin && buffer[end - 1] == 0x0D { end -= 1 }
                if buffer[begin..<end].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                return (lineNumber, Data(buffer[begin..<end]))
            }
            scanned = buffer.count - start
            if atEnd {
                guard start < buffer.count || overLimit else { return nil }
                lineNumber += 1
                let text = buffer[start...]
                start = buffer.count
                scanned = 0
                if overLimit { return (lineNumber, Data()) }
                if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
                return (lineNumber, Data(text))
            }
            // A line past the limit is dropped as it is read, up to its newline.
            if scanned > ManifestReader.maxLineBytes {
                overLimit = true
                start = buffer.count
                scanned = 0
            }
            // Keep only the unread tail, then read more.
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            if readAppending(descriptor, into: &buffer, count: 1 << 16) <= 0 { atEnd = true }
        }
    }
}

struct ManifestEntry: Decodable {
    var input: String
    var output: String
    var request: RenderRequest

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Just the output, decoded without the request.
    struct OutputOnly: Decodable {
        var output: String
    }

    static let knownKeys: [String] = (["input", "output"] + RenderRequest.CodingKeys.allCases.map(\.stringValue)).sorted()

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Key.self) else {
            throw UsageErrors.notAJSONObject()
        }
        if let unknown = container.allKeys.map(\.stringValue).filter({ !Self.knownKeys.contains($0) }).sorted().first {
            throw UsageErrors.unknownKey("key", unknown, known: Self.knownKeys)
        }
        guard let input = try? container.decode(String.self, forKey: Key(stringValue: "input")), !input.isEmpty else {
            throw UsageErrors.missingKey("input")
        }
        guard let output = try? container.decode(String.self, forKey: Key(stringValue: "output")), !output.isEmpty else {
            throw UsageErrors.missingKey("output")
        }
        self.input = input
        self.output = output
        request = try RenderRequest(from: decoder)
    }
}
