import Synchronization

/// A clock tests move by hand: milliseconds since the UNIX epoch.
public final class ManualClock: Sendable {
    private let millis: Mutex<Int64>

    public init(millis: Int64 = 1_800_000_000_000) {
        self.millis = Mutex(millis)
    }

    public var now: Int64 { self.millis.withLock { $0 } }

    public func advance(seconds: Int64) {
        self.millis.withLock { $0 += seconds * 1000 }
    }

    /// The clock as the store and emulator take it.
    public var function: @Sendable () -> Int64 { { self.now } }
}
