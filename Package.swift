// swift-tools-version:6.0
// Revue: recording, HLS and livestream worker for video rooms.
//
// The targets read top to bottom as the data path (see docs/ARCHITECTURE.md):
//   C libraries → platform wrappers → database → media stages → services → the `revue` tool.
import PackageDescription

/// A system library found through pkg-config, with the Debian package that provides it.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "Revue",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "revue", targets: ["revue"]),
    ],
    targets: [
        // MARK: C libraries (Debian -dev packages; each has a shim header for its macros)
        systemLibrary("CFFmpeg", pkgConfig: "libavformat",
                      apt: ["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"]),
        systemLibrary("CVPX", pkgConfig: "vpx", apt: ["libvpx-dev"]),
        systemLibrary("COpus", pkgConfig: "opus", apt: ["libopus-dev"]),
        systemLibrary("CSRTP", pkgConfig: "libsrtp2", apt: ["libsrtp2-dev"]),
        systemLibrary("COpenSSL", pkgConfig: "openssl", apt: ["libssl-dev"]),
        systemLibrary("CLibPQ", pkgConfig: "libpq", apt: ["libpq-dev"]),
        systemLibrary("CFreeType", pkgConfig: "freetype2", apt: ["libfreetype-dev"]),

        // MARK: Platform: small Swift owners of C objects
        .target(name: "Log"),
        .target(name: "Platform"),
        .target(name: "Crypto", dependencies: ["COpenSSL"]),

        // MARK: Database: PostgreSQL is the job store and the coordination engine
        .target(name: "Postgres", dependencies: ["CLibPQ", "Log", "Platform"]),
        .target(name: "Migrations", dependencies: ["Postgres", "Crypto", "Log"]),

        // MARK: The tool
        .target(name: "CLI", dependencies: ["Postgres", "Migrations", "Log"]),
        .executableTarget(name: "revue", dependencies: ["CLI"]),

        // MARK: Tests mirror Sources/
        .target(name: "TestSupport", dependencies: ["Postgres", "Platform"], path: "Tests/TestSupport"),
        .testTarget(name: "CLibrariesTests",
                    dependencies: ["CFFmpeg", "CVPX", "COpus", "CSRTP", "COpenSSL", "CLibPQ", "CFreeType"]),
        .testTarget(name: "LogTests", dependencies: ["Log"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport"]),
        .testTarget(name: "MigrationsTests", dependencies: ["Migrations", "Postgres", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["CLI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
