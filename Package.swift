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
    .target(name: "CCurlShim"),
    .target(
      name: "RateCore",
      dependencies: [.target(name: "CCurlShim", condition: .when(platforms: [.linux]))],
      swiftSettings: swiftSettings,
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
    ),
    .executableTarget(name: "rates", dependencies: ["RateCore"], swiftSettings: swiftSettings),
    .testTarget(
      name: "RateCoreTests",
      dependencies: ["RateCore"],
      swiftSettings: swiftSettings
    ),
  ]
)
