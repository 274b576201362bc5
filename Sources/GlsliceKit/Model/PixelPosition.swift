/// A pixel of a source image, from its top-left corner.
public struct PixelPosition: Sendable, Equatable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

extension String {
    func replacingNewlines() -> String {
        String(map { $0.isNewline ? " " : $0 })
    }

    /// This word as a POSIX shell reads it back: bare when it is plain, else in single quotes
    /// (a command a message suggests, `batch`'s resume line).
    package var shellQuoted: String {
        let plain = !isEmpty && unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "@%+=:,./_-".unicodeScalars.contains($0))
        }
        return plain ? self : "'" + replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
