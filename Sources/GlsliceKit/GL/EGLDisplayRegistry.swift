import CEGL
import Synchronization

/// Every context on one EGL device shares one `EGLDisplay`, and `eglTerminate`
/// ends it for all of them. So a display is initialised when its first context
/// comes and terminated when its last one goes, never by a context alone.
enum EGLDisplayRegistry {
    private static let users = Locked(DisplayUsers())

    /// Initialises `display` for one more user; returns the EGL version and
    /// that user's hold, which `release` gives back.
    static func acquire(_ display: EGLDisplay) throws -> (major: Int32, minor: Int32, hold: Int) {
        try users.withLock { users throws -> (major: Int32, minor: Int32, hold: Int) in
            // On an initialised display eglInitialize only reports the version.
            var major: EGLint = 0, minor: EGLint = 0
            try GLCheck.egl("eglInitialize", eglInitialize(display, &major, &minor) == EGL_TRUE)
            return (major, minor, users.add(UInt(bitPattern: display)))
        }
    }

    /// Gives one user's hold back; the last one terminates the display.
    static func release(_ display: EGLDisplay, hold: Int) {
        users.withLock { users in
            if users.remove(UInt(bitPattern: display), hold: hold) { eglTerminate(display) }
        }
    }

    /// Whether `hold` is still held (for tests: a context that is gone has given its hold back).
    static func isHeld(_ hold: Int) -> Bool {
        users.withLock { $0.isHeld(hold) }
    }
}

/// Users per display, apart from EGL so that its rule can be tested on its own.
/// Each user has a hold of its own, so a release can be told from another's.
struct DisplayUsers {
    private var holds: [UInt: Set<Int>] = [:]
    private var nextHold = 1

    /// One user more of `key`; returns its hold.
    mutating func add(_ key: UInt) -> Int {
        defer { nextHold += 1 }
        holds[key, default: []].insert(nextHold)
        return nextHold
    }

    /// Gives `hold` back; true when that was the last hold on `key` (the display must go).
    /// A hold given back twice, or one never given, changes nothing.
    mutating func remove(_ key: UInt, hold: Int) -> Bool {
        guard holds[key]?.remove(hold) != nil else { return false }
        guard holds[key]?.isEmpty == true else { return false }
        holds[key] = nil
        return true
    }

    func count(_ key: UInt) -> Int { holds[key]?.count ?? 0 }

    func isHeld(_ hold: Int) -> Bool { holds.values.contains { $0.contains(hold) } }
}
