import Foundation

/// A small deterministic generator (SplitMix64): the same seed gives the same cases on every run,
/// so a failure names its seed and can be replayed. The fuzz and round-trip tests' one generator.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seeds a fuzz test runs with: its own fixed one, which every run repeats, and a fresh one
    /// each run, so that runs over time cover more than one sequence. The fresh one is the test's
    /// argument (named in its result) and printed; `APNS_EMULATOR_FUZZ_SEED=<hex>` replays it.
    public static func seeds(fixed: UInt64) -> [UInt64] {
        let given = ProcessInfo.processInfo.environment["APNS_EMULATOR_FUZZ_SEED"].flatMap { UInt64($0, radix: 16) }
        let fresh = given ?? UInt64.random(in: .min ... .max)
        print(
            "fuzz seeds: \(String(fixed, radix: 16)) and fresh \(String(fresh, radix: 16)) (APNS_EMULATOR_FUZZ_SEED replays it)")
        return [fixed, fresh]
    }
}
