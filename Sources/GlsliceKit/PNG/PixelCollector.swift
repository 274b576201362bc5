/// Collects strips into one premultiplied image (tests, parity, benchmarks).
final class PixelCollector: StripSink {
    package let size: PixelSize
    private var pixels: [UInt8]
    private var filled = 0

    init(size: PixelSize) {
        self.size = size
        pixels = [UInt8](repeating: 0, count: size.pixelCount * 4)
    }

    package func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int) throws {
        let bytes = count * size.width * 4
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            (base + filled).update(from: rows, count: bytes)
        }
        filled += bytes
    }

    package var image: PremultipliedImage {
        PremultipliedImage(RGBAImage(width: size.width, height: size.height, pixels: pixels))
    }
}
