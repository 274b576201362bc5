import Foundation

/// One job's outcome, as a line of the results file.
struct JobResult: Sendable, Encodable {
    package enum Status: String, Sendable, Encodable { case ok, skipped, error }
    package var line: Int
    package var output: String?
    package var status: Status
    package var error: String?
    package var milliseconds: Double
    package var bytes: Int
    /// A nine-patch source's padding and optical bounds, for laying text out in the output.
    package var ninePatch: NinePatchBounds?

    init(line: Int, output: String?, status: Status, error: String?, milliseconds: Double, bytes: Int,
                ninePatch: NinePatchBounds? = nil) {
        self.line = line
        self.output = output
        self.status = status
        self.error = error
        self.milliseconds = milliseconds
        self.bytes = bytes
        self.ninePatch = ninePatch
    }

    enum CodingKeys: String, CodingKey {
        case line, output, status, error, bytes
        case milliseconds = "ms"
        case ninePatch = "nine-patch"
    }

    /// Writes every key, `null` where there is no value, `ms` to the microsecond.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(line, forKey: .line)
        try c.encode(output, forKey: .output)
        try c.encode(status, forKey: .status)
        try c.encode(error, forKey: .error)
        try c.encode((milliseconds * 1000).rounded() / 1000, forKey: .milliseconds)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(ninePatch, forKey: .ninePatch)
    }

    /// One line of sorted-key JSON.
    var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
