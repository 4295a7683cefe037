// swift-tools-version: 6.0
// rates: a command-line exchange-rate tracker. No package dependencies, by design:
// everything is built on the toolchain (Foundation, FoundationNetworking, Dispatch, Glibc/Darwin).
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
    .target(name: "RateCore", swiftSettings: swiftSettings),
    .executableTarget(name: "rates", dependencies: ["RateCore"], swiftSettings: swiftSettings),
    .testTarget(
      name: "RateCoreTests",
      dependencies: ["RateCore"],
      swiftSettings: swiftSettings
    ),
  ]
)
