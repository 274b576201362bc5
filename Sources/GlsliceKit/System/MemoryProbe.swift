import Foundation

/// Swift traps when an allocation fails, so an allocation whose size the
/// input decides is tried first with `malloc`: under `ulimit -v` or a
/// container limit the job then fails with a message instead of aborting.
/// (It is a probe, unmapped at once: the real allocation follows it directly.
/// `mmap`, not `malloc`: the optimiser deletes a malloc/free pair it can see.)
func ensureMemory(_ bytes: Int, for what: @autoclosure () -> String) throws {
    guard bytes > 0 else { return }
    let probe = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
    guard let probe, probe != MAP_FAILED else {
        throw InputErrors.notEnoughMemory(for: what(), bytes: bytes)
    }
    munmap(probe, bytes)
}
