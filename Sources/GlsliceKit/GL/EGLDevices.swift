import CEGL
import Foundation

/// The EGL devices a context can be made on, as `doctor` lists them and
/// `GPUContext.make` tries them.
extension GPUContext {
    /// One EGL device as `eglQueryDevicesEXT` lists it.
    struct Device {
        package var index: Int
        var drmFile: String?
        var extensions: String
        /// Mesa's software device (`EGL_MESA_device_software`).
        var isSoftware: Bool { extensions.contains("EGL_MESA_device_software") }
        let handle: EGLDeviceEXT?
    }

    /// The client extensions (`eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)`).
    static var clientExtensions: String {
        guard let text = eglQueryString(gs_egl_no_display(), EGL_EXTENSIONS) else { return "" }
        return String(validatingCString: text) ?? ""
    }

    /// The EGL devices in enumeration order.
    static func devices() -> [Device] {
        guard clientExtensions.contains("EGL_EXT_device_enumeration") || clientExtensions.contains("EGL_EXT_device_base"),
              gs_egl_has_device_enumeration() != 0 else { return [] }
        var count: EGLint = 0
        guard gs_egl_query_devices(0, nil, &count) == EGL_TRUE, count > 0 else { return [] }
        var handles = [EGLDeviceEXT?](repeating: nil, count: Int(count))
        guard gs_egl_query_devices(count, &handles, &count) == EGL_TRUE else { return [] }
        return handles.prefix(Int(count)).enumerated().map { index, handle in
            func string(_ name: Int32) -> String? {
                guard let handle, let text = gs_egl_query_device_string(handle, name) else { return nil }
                return String(validatingCString: text)
            }
            return Device(index: index, drmFile: string(EGL_DRM_DEVICE_FILE_EXT),
                          extensions: string(EGL_EXTENSIONS) ?? "", handle: handle)
        }
    }

    static func describe(_ device: Device) -> String {
        "EGL device \(device.index) (\(device.isSoftware ? "software" : device.drmFile ?? "no DRM file"))"
    }
}
