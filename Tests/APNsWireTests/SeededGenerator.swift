import APNsCore
import APNsWire
import NIOCore
import NIOEmbedded
import Testing

/// A small deterministic generator (SplitMix64): the same seed gives the same cases on every run,
/// so a failure names its seed and can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
