/// The catalogue compiled into Understudy, so `understudy` serves data with no files beside it.
///
/// The JSON lives in `DefaultFixtures+Embedded.swift`, generated from `fixtures/` by
/// `fixtures/generator/generate.py`.
enum DefaultFixtures {}
