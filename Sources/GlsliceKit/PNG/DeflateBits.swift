/// Bits packed as deflate packs them (RFC 1951 §3.1.1): least significant bit
/// first within each byte; Huffman codes go in from their most significant bit.
struct DeflateBits {
    private(set) var bytes: [UInt8] = []
    private var pending: UInt64 = 0
    private var pendingCount = 0

    /// `count` (≤ 32) low bits of `value`, least significant first.
    mutating func write(_ value: Int, count: Int) {
        let mask: UInt64 = (1 << UInt64(count)) &- 1
        pending |= (UInt64(truncatingIfNeeded: value) & mask) << UInt64(pendingCount)
        pendingCount += count
        while pendingCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingCount -= 8
        }
    }

    /// A Huffman code of `length` bits, most significant bit first.
    mutating func write(code: Int, length: Int) {
        var reversed = 0, c = code
        for _ in 0..<length {
            reversed = reversed << 1 | c & 1
            c >>= 1
        }
        write(reversed, count: length)
    }

    /// Pads with zero bits to the next byte.
    mutating func alignToByte() {
        if pendingCount > 0 { write(0, count: 8 - pendingCount) }
    }

    mutating func append(bytes more: [UInt8]) {
        precondition(pendingCount == 0, "bytes appended off a byte boundary")
        bytes.append(contentsOf: more)
    }
}
