import Foundation
import Synchronization

/// One manifest line made ready: paths resolved, options validated.
public struct ManifestJob: Sendable {
    /// 1-based line number in the manifest.
    public var line: Int
    public var input: String
    public var output: String
    public var request: RenderRequest
}

/// Reads a JSON-lines manifest one line at a time, so memory does not grow
/// with its length. Each non-blank line is a job; its index for sharding is
/// its line number − 1. A batch's feeder thread reads it; the reading state
/// sits behind a mutex, so the compiler checks the hand-over.
public final class ManifestReader: Sendable {
    public let path: String
    /// Relative inputs resolve against the manifest's folder.
    let manifestFolder: URL
    /// Relative outputs resolve against this (the `--out-dir`, else the manifest's folder).
    let outputFolder: URL
    private let state: Mutex<LineState>

    /// Where reading stands: the file, the unread bytes, the line count.
    fileprivate struct LineState {
        var handle: FileHandle
        var buffer = Data()
        var start = 0
        var atEnd = false
        var lineNumber = 0
    }

    public init(path: String, outputFolder: String? = nil) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: path) else {
            throw GlsliceError(.noInput, file: path, "no such manifest file")
        }
        state = Mutex(LineState(handle: handle))
        manifestFolder = URL(fileURLWithPath: path).deletingLastPathComponent()
        self.outputFolder = outputFolder.map { URL(fileURLWithPath: $0) } ?? manifestFolder
    }

    deinit { state.withLock { try? $0.handle.close() } }

    /// The next non-blank line, or nil at the end.
    public func nextLine() -> (number: Int, text: Data)? {
        state.withLock { $0.nextLine() }
    }

    /// Turns one line into a job, or an error that names the line.
    public func job(line: Int, text: Data) throws -> ManifestJob {
        do {
            let entry: ManifestEntry
            do {
                entry = try JSONDecoder().decode(ManifestEntry.self, from: text)
            } catch let error as GlsliceError {
                throw error
            } catch {
                throw GlsliceError(.usage, "not valid JSON")
            }
            return ManifestJob(line: line, input: resolve(entry.input, against: manifestFolder),
                               output: resolve(entry.output, against: outputFolder), request: entry.request)
        } catch let error as GlsliceError {
            var located = error
            located.file = "\(path):\(line)"
            if let file = error.file { located.message = "\(file): \(error.message)" }
            throw located
        }
    }

    /// Joins by string: `URL.appendingPathComponent` was 2% of a batch of small jobs.
    private func resolve(_ path: String, against folder: URL) -> String {
        if path.hasPrefix("/") { return path }
        let base = folder.path
        return base.hasSuffix("/") ? base + path : base + "/" + path
    }
}

/// One manifest line as JSON: `input`, `output`, and the `RenderRequest` keys.
extension ManifestReader.LineState {
    mutating func nextLine() -> (number: Int, text: Data)? {
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

    static let knownKeys: [String] = (["input", "output"] + RenderRequest.CodingKeys.allCases.map(\.stringValue)).sorted()

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Key.self) else {
            throw GlsliceError(.usage, "each line must be a JSON object")
        }
        if let unknown = container.allKeys.map(\.stringValue).filter({ !Self.knownKeys.contains($0) }).sorted().first {
            throw GlsliceError(.usage, "unknown key '\(unknown)' (known: \(Self.knownKeys.joined(separator: ", ")))")
        }
        guard let input = try? container.decode(String.self, forKey: Key(stringValue: "input")), !input.isEmpty else {
            throw GlsliceError(.usage, "missing \"input\"")
        }
        guard let output = try? container.decode(String.self, forKey: Key(stringValue: "output")), !output.isEmpty else {
            throw GlsliceError(.usage, "missing \"output\"")
        }
        self.input = input
        self.output = output
        request = try RenderRequest(from: decoder)
    }
}
