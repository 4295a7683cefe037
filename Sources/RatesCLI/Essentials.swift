// The one place RatesCLI imports Foundation. Where the toolchain has
// FoundationEssentials (Linux), that is all RatesCLI uses: JSON coders, Data,
// Date, URL, FileManager, ProcessInfo, without libFoundation.so and its ICU
// data (about 45 MB of a static binary). Elsewhere (macOS) Foundation itself.
// `@_exported` makes the import visible to every file of the module (and to
// its clients), so no other file imports Foundation; `.ci/run` and
// `EssentialsImportTests` reject any other `import Foundation`.
#if canImport(FoundationEssentials)
  @_exported import FoundationEssentials
#else
  @_exported import Foundation
#endif
