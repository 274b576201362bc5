import CEGL
import Synchronization

/// Every context on one EGL device shares one `EGLDisplay`, and `eglTerminate`
/// ends it for all of them. So a display is initialised when its first context
/// comes and terminated when its last one goes, never by a context alone.
enum EGLDisplayRegistry {
    private static let users = Locked(DisplayUsers())

    /// Initialises `display` for one more user; returns the EGL version.
    static func acquire(_ display: EGLDisplay) throws -> (major: Int32, minor: Int32) {
        try users.withLock { users throws -> (major: Int32, minor: Int32) in
            // On an initialised display eglInitialize only reports the version.
            var major: EGLint = 0, minor: EGLint = 0
            try GLCheck.egl("eglInitialize", eglInitialize(display, &major, &minor) == EGL_TRUE)
            users.add(UInt(bitPattern: display))
            return (major, minor)
        }
    }

    /// Gives one user's reference back; the last one terminates the display.
    static func release(_ display: EGLDisplay) {
        users.withLock { users in
            if users.remove(UInt(bitPattern: display)) { eglTerminate(display) }
        }
    }

    /// How many contexts hold `display` now (for tests).
    static func userCount(_ display: EGLDisplay) -> Int {
        users.withLock { $0.count(UInt(bitPattern: display)) }
    }
}

/// Users per display, apart from EGL so that its rule can be tested on its own.
struct DisplayUsers {
    private var counts: [UInt: Int] = [:]

    mutating func add(_ key: UInt) { counts[key, default: 0] += 1 }

    /// One user fewer; true when that was the last one (the display must go).
    mutating func remove(_ key: UInt) -> Bool {
        guard let count = counts[key] else { return false }
        counts[key] = count > 1 ? count - 1 : nil
        return count == 1
    }

    func count(_ key: UInt) -> Int { counts[key] ?? 0 }
}
