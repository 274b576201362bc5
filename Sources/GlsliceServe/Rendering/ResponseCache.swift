import GlsliceKit
import NIOCore

/// Encoded PNGs by job digest, least recently used first out, capped in bytes
/// (`--cache-mb`). A digest names the bytes, so an entry never goes stale.
final class ResponseCache: Sendable {
    private let capacity: Int
    private let lru = Locked(LRU())

    init(capacityBytes: Int) { capacity = capacityBytes }

    func get(_ digest: String) -> ByteBuffer? { lru.withLock { $0.get(digest) } }

    func put(_ digest: String, _ png: ByteBuffer) {
        guard png.readableBytes <= capacity else { return }
        lru.withLock { $0.put(digest, png, capacity: capacity) }
    }

    var stats: (entries: Int, bytes: Int) { lru.withLock { ($0.index.count, $0.bytes) } }

    /// A doubly linked list in an array (slots reused), and an index by key: O(1) each way.
    struct LRU {
        struct Slot {
            var key: String
            var value: ByteBuffer
            var newer = -1
            var older = -1
        }
        var slots: [Slot] = []
        var unused: [Int] = []
        var index: [String: Int] = [:]
        var newest = -1
        var oldest = -1
        var bytes = 0

        mutating func get(_ key: String) -> ByteBuffer? {
            guard let slot = index[key] else { return nil }
            unlink(slot)
            pushNewest(slot)
            return slots[slot].value
        }

        mutating func put(_ key: String, _ value: ByteBuffer, capacity: Int) {
            if let slot = index[key] {
                bytes += value.readableBytes - slots[slot].value.readableBytes
                slots[slot].value = value
                unlink(slot)
                pushNewest(slot)
            } else {
                let entry = Slot(key: key, value: value)
                let slot: Int
                if let reused = unused.popLast() { slots[reused] = entry; slot = reused } else { slots.append(entry); slot = slots.count - 1 }
                index[key] = slot
                bytes += value.readableBytes
                pushNewest(slot)
            }
            while bytes > capacity, oldest >= 0 { evict(oldest) }
        }

        private mutating func evict(_ slot: Int) {
            unlink(slot)
            bytes -= slots[slot].value.readableBytes
            index[slots[slot].key] = nil
            slots[slot] = Slot(key: "", value: ByteBuffer())
            unused.append(slot)
        }

        private mutating func unlink(_ slot: Int) {
            let (newer, older) = (slots[slot].newer, slots[slot].older)
            if newer >= 0 { slots[newer].older = older } else { newest = older }
            if older >= 0 { slots[older].newer = newer } else { oldest = newer }
            slots[slot].newer = -1
            slots[slot].older = -1
        }

        private mutating func pushNewest(_ slot: Int) {
            slots[slot].older = newest
            if newest >= 0 { slots[newest].newer = slot }
            newest = slot
            if oldest < 0 { oldest = slot }
        }
    }
}
