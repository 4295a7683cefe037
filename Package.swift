// swift-tools-version: 6.0
// rates: a command-line exchange-rate tracker. No package dependencies, by design:
// everything is built on the toolchain (FoundationEssentials, Dispatch, Synchronization,
// Glibc/Darwin; Foundation itself only where FoundationEssentials is missing, on macOS).
// HTTP goes through the system's libcurl (libcurl.so.4 on Linux, libcurl.4.dylib on macOS),
// loaded at run time with dlopen; CCurlShim declares the few libcurl prototypes and
// constants needed, by hand. (dlopen needs no linker setting: Glibc's module map links
// libdl, and on macOS it is in libSystem.)
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

// Release builds of RateCore and RatesCLI take a concrete generic type's metadata (`[String:
// String]`, `[Provider: ProviderError]`) from an accessor the compiler writes, which passes the
// conformances the type needs, rather than by its mangled name, which the runtime demangles,
// checking each conformance it has not met yet with a scan of every conformance record loaded
// (4,809). A warm `history BTC EUR` made 6 such scans rather than 23 and ran 17 % fewer
// instructions (13.1 million rather than 15.9; `convert` 20 % fewer, with a config file 20 and
// 23 %), for about 3 % more compile and a 2 % larger binary. (The `when` is no condition
// SwiftPM checks: any unsafe flag keeps a target out of other packages, hence RateCore is
// no library product.)
let releaseMetadataAccess = SwiftSetting.unsafeFlags(
  ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
  .when(configuration: .release))

// The test targets are compiled to be run, not stepped through: a failed expectation names its
// own file and line.
// - No debug information: DWARF for 30,000 lines of macro-expanded tests. The frontend is told
//   itself (`-Xfrontend -gnone`): SwiftPM puts its own `-g` after a target's flags, and the
//   last one counts. (To step through a test in lldb, take that flag out.)
// - Each as a whole module, LLVM on two threads (and `-disable-batch-mode`, or the driver says
//   it ignores the batches SwiftPM asks for). In batches, every batch type-checked the
//   declarations of its whole module again, for the hundreds of functions the test macros add
//   to each. A cold build of the four test modules took 297 s of CPU on 2 cores rather than 364
//   (171 s rather than 189). The price: editing a test compiles its whole module again (about
//   45 s for RatesCLITests, the largest), where a batch compiled the file.
// - The module file written by that same job (`-no-emit-module-separately-wmo`): the driver's
//   default, a second job beside it, type-checked every declaration again and expanded every
//   macro again, about 30 s of CPU over the four modules.
// - No LLVM IR verifier (`-disable-llvm-verify`): it checks the compiler's own output, and took a
//   fifth of the LLVM time of RatesCLITests (6 of 30 s of CPU), whose async tests and macro
//   expansions make more IR than the product's code.
// Test targets are never built for a package that depends on this one, so the unsafe flags
// cost it nothing. (Linking the test binary with lld instead of GNU ld took a third of the
// time, but that binary crashed inside libdispatch in about one run in five: not worth it.)
let testSettings =
  swiftSettings + [
    .unsafeFlags([
      "-Xfrontend", "-gnone", "-Xfrontend", "-disable-llvm-verify",
      "-wmo", "-num-threads", "2", "-disable-batch-mode", "-no-emit-module-separately-wmo",
    ])
  ]

let package = Package(
  name: "rates",
  platforms: [.macOS(.v15)],
  // One product, the executable. RateCore is a module of this package, not a library product:
  // nothing outside depends on it, and SwiftPM refuses unsafe flags (RateCore's release
  // flags, below) in the targets of a product another package uses.
  products: [
    .executable(name: "rates", targets: ["rates"])
  ],
  targets: [
    // libcurl's easy interface, declared by hand and loaded at run time.
    .target(name: "CCurlShim"),
    // The ECB's daily reference rates since 1999, embedded with C23 #embed
    // (scripts/update-ecb-snapshot.sh regenerates eurofxref.bin).
    .target(name: "CECBSnapshot", exclude: ["eurofxref.bin"]),
    // printf's %.*f and %.*e called with plain arguments (NumberText): Swift's withVaList
    // casts each argument to a protocol at run time, a seventh of a warm `convert`.
    .target(name: "CNumberFormat"),
    // The domain: models, HTTP, providers, cache, user data, ledger, analysis,
    // export formats. Knows nothing of terminals, flags or exit codes. Its release build
    // offers its function bodies to the modules that use it (`-cross-module-optimization`), so
    // RatesCLI's optimizer specializes RateCore's generic code for the types it calls it with
    // rather than running it generically: the 10,000-point `history EUR USD --json` ran 39 %
    // fewer instructions (128 million rather than 211; csv 5 % fewer), a warm `history BTC
    // EUR` 8 %, with outputs byte-identical and no measurable change in compile time.
    .target(
      name: "RateCore",
      dependencies: ["CCurlShim", "CECBSnapshot", "CNumberFormat"],
      swiftSettings: swiftSettings + [
        releaseMetadataAccess,
        .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
      ]
    ),
    // The command line: commands, options, help, rendering, terminal screens. Optimized for
    // size in release builds: its code parses one command line and renders one answer, and
    // `-Osize` ran every benchmark in the same time as `-O` (alternating runs: a warm `history
    // BTC EUR` 7.7 ms against 8.0, the 10,000-point `--json` 29.0 ms against 29.8), with a
    // binary 4 % smaller (6.4 MB stripped, from 6.7) and a fifth less optimizer work
    // (RatesCLI's release compile, the last link of CI's longest chain, went from 94 to 77
    // CPU-s). RateCore stays at `-O`: its compile was no shorter at `-Osize`.
    .target(
      name: "RatesCLI", dependencies: ["RateCore"],
      swiftSettings: swiftSettings + [
        .unsafeFlags(["-Osize"], .when(configuration: .release)), releaseMetadataAccess,
      ]),
    // The executable: adapts the process to RatesCLI. It exports no symbols: the static
    // Swift runtime's link arguments ask for --export-dynamic, which put RateCore's and
    // RatesCLI's 5,000 public symbols in the dynamic table, and the runtime's start-up
    // `dladdr` walked them all on every run (a twentieth of a warm command). The flag is
    // an ELF linker's (GNU ld, lld); macOS's ld64 does not know it, hence Linux only.
    .executableTarget(
      name: "rates", dependencies: ["RatesCLI"], swiftSettings: swiftSettings,
      linkerSettings: [
        .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))
      ]),
    // Shared by every test target and by `fake-api`: the fake APIs, the loopback
    // server, fixtures, the test clock and the binary runner. A regular library that
    // never imports Testing, so it builds anywhere (release too). It needs RateCore only,
    // so it and RateCoreTests compile while RatesCLI does.
    .target(name: "RatesTestSupport", dependencies: ["RateCore"], swiftSettings: swiftSettings),
    // `expect`, `expectEqual`, `expectContains`, `require`: `#expect` and `#require` as plain
    // functions, which compile in a tenth of the time (Tests/README.md, "Compile time"). The
    // one support target that imports Testing, so it lives under Tests/; it depends on nothing
    // else, so it compiles first.
    .target(name: "RatesExpectations", path: "Tests/RatesExpectations", swiftSettings: swiftSettings),
    // CLIHarness: `rates` in process, for RatesCLITests (the one support file that needs
    // RatesCLI).
    .target(
      name: "RatesCLIHarness", dependencies: ["RateCore", "RatesCLI", "RatesTestSupport"],
      swiftSettings: swiftSettings),
    // `fake-api`: the same fake APIs on a loopback port, for scripts/bench.sh,
    // scripts/watch-soak.sh and offline demos (scripts/fake-env.sh).
    .executableTarget(
      name: "fake-api", dependencies: ["RatesTestSupport"], path: "Sources/FakeAPI",
      swiftSettings: swiftSettings),
    // The domain through RateCore's API: decoders, providers via inline transports,
    // HTTP, cache, storage, ledger, analysis.
    .testTarget(
      name: "RateCoreTests", dependencies: ["RateCore", "RatesExpectations", "RatesTestSupport"],
      swiftSettings: testSettings),
    // Commands in process through CLIHarness, rendering, whole-output goldens,
    // completions, parsing.
    .testTarget(
      name: "RatesCLITests",
      dependencies: [
        "RateCore", "RatesCLI", "RatesExpectations", "RatesTestSupport", "RatesCLIHarness",
      ],
      exclude: ["Golden"], swiftSettings: testSettings),
    // The terminal screens in process: the home screen (state, driver, frames), the watch
    // board and the terminal layer. A target of its own so that it compiles beside another
    // test module rather than inside RatesCLITests, the largest.
    .testTarget(
      name: "ScreenTests",
      dependencies: [
        "RateCore", "RatesCLI", "RatesExpectations", "RatesTestSupport", "RatesCLIHarness",
      ],
      exclude: ["Golden"], swiftSettings: testSettings),
    // The built binaries: wiring, exit codes, signals, pseudo-terminals, real sockets.
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["RateCore", "RatesCLI", "RatesExpectations", "RatesTestSupport"],
      swiftSettings: testSettings),
  ]
)
