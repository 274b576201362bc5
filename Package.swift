// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "glslice",
    products: [
        .library(name: "GlsliceKit", targets: ["GlsliceKit"]),
        .executable(name: "glslice", targets: ["GlsliceCLI"]),
        .executable(name: "glslice-bench", targets: ["GlsliceBench"]),
        .executable(name: "glslice-fuzz", targets: ["GlsliceFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Hummingbird's own: named here for the serve tests' HTTP client (Tests/GlsliceServeTests/TestClient.swift).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // libpng lives behind this shim: every setjmp/longjmp stays inside C.
        .target(
            name: "CPNG",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("deflate")]
        ),
        // libwebp's lossless encoder (Debian's libwebp-dev) behind a status-returning shim.
        .target(
            name: "CWebP",
            linkerSettings: [.linkedLibrary("webp"), .linkedLibrary("webpmux")]
        ),
        // SHA-256 and HMAC-SHA256 from the system's libcrypto (Debian's libssl-dev), as libpng is used:
        // swift-crypto compiled BoringSSL, 393 of a fresh build's 436 compile steps (issue 70).
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        // System calls Swift cannot make itself: openat2 (containment beneath a folder), O_TMPFILE.
        .target(name: "CFiles"),
        // EGL and GLES 3 behind a shim for cast macros and extension entry points.
        .target(
            name: "CEGL",
            linkerSettings: [.linkedLibrary("EGL"), .linkedLibrary("GLESv2")]
        ),
        .target(
            name: "Shaders",
            path: "Shaders",
            resources: [.embedInCode("nine_slice.vert"), .embedInCode("nine_slice.frag"), .embedInCode("deflate_tokens.comp"), .embedInCode("deflate_pack.comp"), .embedInCode("deflate_code.comp"), .embedInCode("scanlines.comp")]
        ),
        .target(
            name: "GlsliceKit",
            dependencies: ["CPNG", "CWebP", "CFiles", "CEGL", "CCrypto", "Shaders"]
        ),
        // The HTTP service sits after the library in the flow, so GlsliceKit stays free of NIO.
        .target(
            name: "GlsliceServe",
            dependencies: [
                "GlsliceKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.embedInCode("Preview/preview.html")]
        ),
        .executableTarget(
            name: "GlsliceCLI",
            dependencies: [
                "GlsliceKit",
                "GlsliceServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "GlsliceBench",
            dependencies: ["GlsliceKit", "CPNG", "Shaders"],
            path: "Benchmarks/GlsliceBench"
        ),
        // libFuzzer targets (`make fuzz`); a plain build replays corpora through them.
        .executableTarget(
            name: "GlsliceFuzz",
            dependencies: [
                "GlsliceKit", "GlsliceServe",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz",
            exclude: ["corpus", "lsan-suppressions.txt"]
        ),
        .testTarget(name: "GlsliceKitTests", dependencies: ["GlsliceKit", "CEGL", "CFiles", "CWebP", "CPNG"]),
        .testTarget(name: "GlsliceCLITests", dependencies: ["GlsliceKit", "CWebP"]),
        .testTarget(
            name: "GlsliceServeTests",
            dependencies: [
                "GlsliceServe", "GlsliceKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
