import Foundation

/// GL drivers do not survive running out of address space: under `ulimit -v`
/// with about 200 MiB to spare, Mesa's swrast_dri.so dereferences a failed
/// allocation (SIGSEGV) instead of failing `eglInitialize`. So no driver is
/// loaded unless `minimumHeadroom` is left; llvmpipe maps about 240 MiB.
enum AddressSpaceGuard {
    static let minimumHeadroom = 512 << 20

    /// Bytes of address space left under RLIMIT_AS; nil when there is no limit.
    static func addressSpaceHeadroom() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        // /proc/self/statm: the first field is the mapped size in pages.
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = Int(statm.split(separator: " ").first ?? "") ?? 0
        let mapped = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        return max(0, Int(clamping: limit.rlim_cur) - mapped)
    }

    /// Throws `.unavailable` when loading a driver could crash the process.
    static func check() throws {
        if let headroom = addressSpaceHeadroom(), headroom < minimumHeadroom {
            throw UnavailableErrors.addressSpace(headroom: headroom, needed: minimumHeadroom)
        }
    }
}
