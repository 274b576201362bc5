import CFiles
import Foundation

/// How a long-lived process gives large blocks back.
///
/// glibc serves a block above its mmap threshold with a mapping of its own,
/// returned to the system when freed; but each time such a block is freed it
/// raises the threshold to that block's size (up to 32 MiB), and blocks below
/// the new threshold come from the heap, where a mix of sizes fragments it and
/// freed memory stays resident. A server that decodes sources, uploads cell
/// textures (llvmpipe keeps them in the process) and encodes answers of many
/// sizes then grows for minutes: `serve --backend gpu --cache-mb 0` under the
/// soak's mix went from 976 MiB at one minute to 1,182 MiB at five. A fixed
/// threshold keeps every block of `threshold` bytes or more in its own
/// mapping; the same soak then stayed within a few percent of its first minute.
package enum LargeAllocations {
    /// Fixes glibc's mmap threshold at `threshold` bytes for this process (serve).
    package static func returnToTheSystem(threshold: Int = 4 << 20) {
        _ = gs_fix_mmap_threshold(Int32(threshold))
    }
}
