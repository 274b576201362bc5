import Foundation

/// Turns rows of straight RGBA8 (or palette indices, one a byte) into PNG
/// scanlines (filter byte None, then RGBA, RGB or indices packed to 1–8 bits)
/// and streams them through `SegmentedZlib` into a `PNGStream`.
final class ScanlineEncoder {
    let channels: Int
    let bitDepth: Int
    private let width: Int
    private let stream: PNGStream
    private let zlib: SegmentedZlib
    private var scanline: [UInt8]

    /// - Parameters:
    ///   - channels: 1 (indices into `palette`, `palette.count / 4` entries), 3 or 4.
    ///   - threads: how many zlib pieces may compress at once.
    init(stream: PNGStream, width: Int, height: Int, channels: Int, palette: [UInt8], level: Int32,
         threads: Int, cuts: SegmentedZlib.Cuts, text: (key: String, value: String)?) throws {
        self.stream = stream
        self.width = width
        self.channels = channels
        let entries = palette.count / 4
        bitDepth = channels != 1 ? 8 : entries <= 2 ? 1 : entries <= 4 ? 2 : entries <= 16 ? 4 : 8
        let rowBytes = 1 + (channels == 1 ? (width * bitDepth + 7) / 8 : width * channels)
        scanline = [UInt8](repeating: 0, count: rowBytes)
        try stream.writeHead(width: width, height: height, bitDepth: bitDepth,
                             colour: channels == 1 ? .palette : channels == 3 ? .rgb : .rgba,
                             palette: palette, text: text)
        let total = rowBytes * height
        zlib = SegmentedZlib(level: level, totalBytes: total, rowBytes: rowBytes, pixelBytes: channels,
                             threads: total > 2 * cuts.pieceBytes ? threads : 1, cuts: cuts,
                             emit: { [stream] in try stream.imageData($0) })
    }

    /// `count` rows `stride` bytes apart: RGBA8 (its alpha dropped for RGB) or indices.
    func write(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int, periodRows: Int? = nil) throws {
        let width = self.width, channels = self.channels, depth = bitDepth
        for r in 0..<count {
            let input = rows + r * stride
            try scanline.withUnsafeMutableBufferPointer { line in
                guard let out = line.baseAddress else { return }
                out[0] = 0 // filter: None
                let data = out + 1
                switch channels {
                case 4:
                    data.update(from: input, count: width * 4)
                case 3:
                    for x in 0..<width {
                        data[3 * x] = input[4 * x]
                        data[3 * x + 1] = input[4 * x + 1]
                        data[3 * x + 2] = input[4 * x + 2]
                    }
                default:
                    if depth == 8 {
                        data.update(from: input, count: width)
                    } else {
                        // Packed from the most significant bits, as PNG orders them.
                        let perByte = 8 / depth
                        for b in 0..<(line.count - 1) {
                            var byte: UInt8 = 0
                            for k in 0..<perByte {
                                let x = b * perByte + k
                                let value = x < width ? input[x] : 0
                                byte |= value << UInt8(8 - depth * (k + 1))
                            }
                            data[b] = byte
                        }
                    }
                }
                try zlib.append(row: UnsafePointer(out), periodRows: periodRows)
            }
        }
    }

    /// Ends the image data and the file; returns the file's length.
    func finish() throws -> Int {
        try zlib.finish()
        try stream.finish()
        return stream.count
    }
}
