// swift-tools-version: 6.0
// rates: a command-line exchange-rate tracker. No package dependencies, by design:
// everything is built on the toolchain (Foundation, Dispatch, Synchronization, Glibc/Darwin).
// On Linux, HTTP goes through the system's libcurl.so.4, loaded at run time with dlopen;
// CCurlShim declares the few libcurl prototypes and constants needed, by hand.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "rates",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "rates", targets: ["rates"]),
    .library(name: "RateCore", targets: ["RateCore"]),
  ],
  targets: [
    // libcurl's easy interface, declared by hand and loaded at run time (Linux).
    .target(name: "CCurlShim"),
    // The domain: models, HTTP, providers, cache, user data, ledger, analysis,
    // export formats. Knows nothing of terminals, flags or exit codes.
    .target(
      name: "RateCore",
      dependencies: [.target(name: "CCurlShim", condition: .when(platforms: [.linux]))],
      swiftSettings: swiftSettings,
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
    ),
    // The command line: commands, options, help, rendering, terminal screens.
    .target(name: "RatesCLI", dependencies: ["RateCore"], swiftSettings: swiftSettings),
    // The executable: adapts the process to RatesCLI.
    .executableTarget(name: "rates", dependencies: ["RatesCLI"], swiftSettings: swiftSettings),
    .testTarget(
      name: "RateCoreTests",
      dependencies: ["RateCore", "RatesCLI"],
      swiftSettings: swiftSettings
    ),
  ]
)
