// swift-tools-version:6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "apns-emulator",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "apns-emulator", targets: ["APNsEmulator"]),
        .library(name: "APNsDeviceClient", targets: ["APNsDeviceClient"]),
        // For server apps' own tests: an emulator in the test's process (TestEmulator).
        .library(name: "APNsEmulatorTesting", targets: ["APNsEmulatorTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // `swift package generate-documentation --target APNsEmulatorTesting --target APNsDeviceClient`: the testing
        // library's and the device client's API in DocC.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // HTTP/2 in C (Debian's libnghttp2-dev): the provider front door's HTTP/2, measured six
        // times cheaper per request than swift-nio-http2 (`APNsBenchmark floor-nghttp2`).
        .systemLibrary(
            name: "CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"])]
        ),
        .target(
            name: "APNsCore",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "APNsDevice",
            dependencies: ["APNsCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "APNsAuth",
            dependencies: [
                "APNsCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "APNsInspection",
            dependencies: [
                "APNsDevice",
                "APNsCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "APNsWire",
            dependencies: [
                "APNsCore",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "APNsStore",
            dependencies: [
                "APNsDevice",
                "APNsCore",
                "CLMDB",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // HTTP/1.1 to an emulator's admin API and its event stream: a shard asking its peers, the
        // `push`, `export` and `doctor` commands, the testing library and the tests.
        .target(
            name: "APNsAdminClient",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A provider's HTTP/2 client: the `push` and `channels` commands, the benchmark, the tests.
        .target(
            name: "APNsProviderClient",
            dependencies: [
                "APNsCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "APNsServer",
            dependencies: [
                "APNsAdminClient",
                "APNsDevice",
                "APNsCore",
                "APNsAuth",
                "APNsInspection",
                "APNsWire",
                "APNsStore",
                "CNGHTTP2",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                // The admin token's digest (constant-time comparison, the login cookie).
                .product(name: "Crypto", package: "swift-crypto"),
                // Seed files in YAML (serve --seed, and the Swift fixture's seed).
                .product(name: "Yams", package: "Yams"),
            ],
            resources: [
                .embedInCode("Admin/openapi.json"),
                .embedInCode("Admin/Inbox/index.html"),
                .embedInCode("Admin/Inbox/inbox.css"),
                .embedInCode("Admin/Inbox/activities.js"),
                .embedInCode("Admin/Inbox/clock.js"),
                .embedInCode("Admin/Inbox/core.js"),
                .embedInCode("Admin/Inbox/detail.js"),
                .embedInCode("Admin/Inbox/devices.js"),
                .embedInCode("Admin/Inbox/faults.js"),
                .embedInCode("Admin/Inbox/inbox.js"),
                .embedInCode("Admin/Inbox/list.js"),
                .embedInCode("Admin/Inbox/live.js"),
                .embedInCode("Admin/Inbox/load.js"),
                .embedInCode("Admin/Inbox/phone-screen.js"),
                .embedInCode("Admin/Inbox/phone.js"),
                .embedInCode("Admin/Inbox/providers.js"),
                .embedInCode("Admin/Inbox/route.js"),
                .embedInCode("Admin/Inbox/search.js"),
                .embedInCode("Admin/Inbox/send.js"),
                .embedInCode("Admin/Inbox/webapps.js"),
                .embedInCode("Admin/Inbox/icon.svg"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "APNsDeviceClient",
            dependencies: [
                "APNsCore",
                "APNsDevice",
                "APNsWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "APNsEmulator",
            dependencies: [
                "APNsAdminClient",
                "APNsCore",
                "APNsAuth",
                "APNsDevice",
                "APNsInspection",
                "APNsStore",
                "APNsServer",
                "APNsDeviceClient",
                "APNsProviderClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Also brings CNIOBoringSSL, NIOSSL's BoringSSL (not a product of its own), whose
                // PKCS12_create writes certs provider's .p12 with the cipher every reader knows.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "APNsBenchmark",
            dependencies: [
                "APNsCore",
                "APNsWire",
                "APNsTestSupport",
                "APNsDeviceClient",
                "APNsServer",
                "CNGHTTP2",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "APNsTestSupport",
            dependencies: [
                "APNsAdminClient",
                "APNsEmulatorTesting",
                "APNsDevice",
                "APNsCore",
                "APNsAuth",
                "APNsServer",
                "APNsWire",
                "APNsDeviceClient",
                "APNsProviderClient",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "APNsEmulatorTesting",
            dependencies: [
                "APNsAdminClient", "APNsCore", "APNsAuth", "APNsDevice", "APNsServer", "APNsDeviceClient", "APNsProviderClient",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "APNsEmulatorTestingTests", dependencies: ["APNsEmulatorTesting", "APNsCore", "APNsServer", "APNsAuth", "APNsProviderClient", .product(name: "Crypto", package: "swift-crypto")], swiftSettings: swiftSettings),
        .testTarget(name: "APNsAdminClientTests", dependencies: ["APNsAdminClient"], swiftSettings: swiftSettings),
        .testTarget(name: "APNsCoreTests", dependencies: ["APNsCore", "APNsTestSupport"], swiftSettings: swiftSettings),
        // The command line, parsed in process: options, environment twins, defaults.
        .testTarget(name: "APNsEmulatorCLITests", dependencies: ["APNsEmulator", "APNsServer", "APNsStore", .product(name: "ArgumentParser", package: "swift-argument-parser")], swiftSettings: swiftSettings),
        .testTarget(name: "APNsDeviceTests", dependencies: ["APNsDevice", "APNsCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "APNsWireTests",
            dependencies: [
                "APNsCore",
                "APNsWire",
                "APNsTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsAuthTests",
            dependencies: ["APNsAuth", "APNsCore", "APNsTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsInspectionTests",
            dependencies: ["APNsInspection", "APNsCore", "APNsDevice"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsServerTests",
            dependencies: [
                "APNsServer",
                "APNsDevice",
                "APNsAuth",
                "APNsInspection",
                "APNsStore",
                "APNsWire",
                "APNsCore",
                "APNsTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsStoreTests",
            dependencies: ["APNsCore", "APNsDevice", "APNsStore", "APNsTestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "APNsInspection",
                "APNsDevice",
                "APNsCore",
                "APNsAuth",
                "APNsServer",
                "APNsStore",
                "APNsWire",
                "APNsDeviceClient",
                "APNsProviderClient",
                "APNsTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
