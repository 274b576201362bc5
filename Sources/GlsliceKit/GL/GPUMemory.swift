/// The GPU memory one GPU session holds, in bytes, and the budget it is held to.
///
/// Five things hold GPU memory: the framebuffer, the cell-texture cache, the
/// taps texture, the pixel-pack ring and the compute encoder's buffers. Each is
/// sized for the work at hand and shrinks after a large draw or encoding call,
/// so memory after a burst returns to its level before it. The texture cache
/// may take half the budget (least recently used first out); a strip (the
/// framebuffer and each read-back buffer) a share of the other half. An
/// encoding call takes that other half instead: a strip of `encodingStripBytes`
/// and the encoder's buffers (pixels `encodingPixelBytes`, their scanlines as
/// many, tokens four times `encodingDispatchBytes` and the per-row figures),
/// under half the budget together (docs/DESIGN.md, "GPU memory"). Written on
/// the GL thread; read from any (serve's `/metrics`).
package final class GPUMemory: Sendable {
    /// What holds the bytes.
    package enum Holder: Int, CaseIterable, Sendable {
        case framebuffer, textures, taps, readBack, encoder
    }

    /// `--gpu-mb`'s default: 256 MiB.
    package static let defaultBudget = 256 << 20
    /// The smallest budget a session works within (`--gpu-mb 16`).
    package static let minimumBudget = 16 << 20

    package let budget: Int
    private let held = Locked([Int](repeating: 0, count: Holder.allCases.count))

    package init(budget: Int = GPUMemory.defaultBudget) {
        self.budget = max(Self.minimumBudget, budget)
    }

    /// Bytes held now, by everything.
    package var bytes: Int { held.withLock { $0.reduce(0, +) } }

    /// Bytes `holder` holds now.
    package func bytes(_ holder: Holder) -> Int { held.withLock { $0[holder.rawValue] } }

    func set(_ holder: Holder, _ bytes: Int) { held.withLock { $0[holder.rawValue] = bytes } }

    func add(_ holder: Holder, _ delta: Int) { held.withLock { $0[holder.rawValue] += delta } }

    /// The texture cache's share.
    var textureBytes: Int { budget / 2 }

    /// The pixels one encoding call draws whole into the encoder's buffer, in
    /// bytes: an eighth of the budget, and at most 256 MiB (its offsets stay 32-bit).
    var encodingPixelBytes: Int { min(256 << 20, budget / 8) }

    /// Scanline bytes one encoding dispatch deflates (its tokens take four times
    /// as much): a sixty-fourth of the budget, from 1 MiB to 128 MiB (`GPUDeflater.maxDispatchBytes`).
    var encodingDispatchBytes: Int { min(128 << 20, max(1 << 20, budget / 64)) }

    /// The most a strip drawn for the encoder takes in the framebuffer: a sixteenth of the budget.
    var encodingStripBytes: Int { max(1 << 20, budget / 16) }

    /// The most one strip may take, drawn and read back through `readBackSlots`
    /// buffers (0 without a ring): the framebuffer and the slots share half the budget.
    func stripBytes(readBackSlots: Int) -> Int { max(1 << 20, budget / 2 / (readBackSlots + 1)) }

    /// Keeps an allocation of `capacity` bytes for a draw needing `needed`, or
    /// says to make a new one: when it is too small, or far larger than the
    /// draw (more than twice, and over 4 MiB), so that it shrinks back after a large draw.
    static func keeps(capacity: Int, needed: Int) -> Bool {
        capacity >= needed && (capacity <= 4 << 20 || capacity <= 2 * needed)
    }
}
