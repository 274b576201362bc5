/// A size in whole pixels.
public struct PixelSize: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var pixelCount: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}
