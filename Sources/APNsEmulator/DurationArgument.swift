import APNsAuth
import APNsCore
import APNsServer
import APNsStore
import ArgumentParser

/// A duration on the command line as people write it: `1h`, `90m`, `10s`, `250ms`, `30d`, or a
/// number of seconds; `--help` shows the default the same way (`1h`, not `3600.0`).
struct DurationArgument: ExpressibleByArgument, Sendable, Equatable {
    var duration: Duration

    init(_ duration: Duration) { self.duration = duration }
    init(seconds: Int64) { self.duration = .seconds(seconds) }

    init?(argument: String) {
        guard let duration = DurationText.parse(argument) else { return nil }
        self.duration = duration
    }

    /// In seconds, with the fraction.
    var seconds: Double { Double(self.duration.components.seconds) + Double(self.duration.components.attoseconds) / 1e18 }
    var milliseconds: Int64 { Int64((self.seconds * 1000).rounded()) }

    var defaultValueDescription: String { Self.text(self.duration) }

    /// The largest whole unit that says it exactly: `30d`, `1h`, `20m`, `10s`, `250ms`.
    static func text(_ duration: Duration) -> String {
        let milliseconds = Int64((Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15).rounded())
        for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        where milliseconds >= size && milliseconds % size == 0 {
            return "\(milliseconds / size)\(unit)"
        }
        return "\(milliseconds)ms"
    }
}
