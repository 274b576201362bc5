import GlsliceKit

/// A WebP's encoding memory (`WebPEncoder.encodeBytesPerPixel` per output
/// pixel) is held in `--answer-mb` from its draw to its last byte encoded.
extension AnswerBudget {
    /// The bytes a WebP of `size` holds while it is encoded.
    static func webPEncoding(_ size: PixelSize) -> Int { size.pixelCount * WebPEncoder.encodeBytesPerPixel }

    /// Why a WebP of `size` is never encoded here: past WebP's side limit, or
    /// needing more than all of `--answer-mb` (a 400: asking again will not help).
    func webPRefusal(_ size: PixelSize) -> GlsliceError? {
        if let refusal = WebPEncoder.refusal(for: size, option: .format) { return refusal }
        let bytes = Self.webPEncoding(size)
        guard bytes > capacity else { return nil }
        return InputErrors.webPOverAnswerBudget("\(size)", bytes: bytes, capacity: capacity)
    }
}
