import RateCore

/// What the home screen's runtime needs from the world: the live one talks to the
/// providers (through ``RateDesk``) and the user's files (``UserData``); tests use fakes.
///
/// ``HomeSession`` calls ``perform(_:send:)`` on a task of its own for each effect, and
/// cancels a load, detail or search task when a newer effect of the same kind replaces it.
protocol HomeDriver: Sendable {
  /// The user's lists as stored (after any migration).
  func lists() throws -> HomeLists
  /// Carries out `effect` (never ``HomeEffect/exit(_:)``), sending what comes of it to
  /// `send`: data (cached first, then fresh), the lists after a change, and the loader's
  /// status (loading, a rate-limit pause, a one-line failure). Never throws: failures
  /// become ``HomeStatus/failed(_:)``.
  func perform(_ effect: HomeEffect, send: @escaping @Sendable (HomeEvent) -> Void) async
}
