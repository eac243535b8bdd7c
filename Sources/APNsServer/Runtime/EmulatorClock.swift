import Synchronization

/// The emulator's one clock: real time plus an offset that tests move forward, so that "in an
/// hour" happens now. It governs notification expiry (the store, the sweeper, hand-overs) and the
/// phone; provider-token ages keep real time, since providers sign with real clocks.
///
/// Thread-safe.
public final class EmulatorClock: Sendable {
    /// Real time, in milliseconds since the UNIX epoch (tests replace it).
    private let real: @Sendable () -> Int64
    private let offset = Atomic<Int64>(0)

    public init(real: @escaping @Sendable () -> Int64) {
        self.real = real
    }

    /// The emulator's time, in milliseconds since the UNIX epoch.
    public var nowMillis: Int64 { self.real() + self.offset.load(ordering: .acquiring) }

    /// Real time.
    public var realMillis: Int64 { self.real() }

    /// How far ahead of real time the clock is, in milliseconds.
    public var offsetMillis: Int64 { self.offset.load(ordering: .acquiring) }

    /// Moves the clock forward by `millis` (a negative amount does nothing: never back).
    public func advance(by millis: Int64) {
        self.offset.add(max(0, millis), ordering: .acquiringAndReleasing)
    }

    /// Moves the clock to `millis` if that is not in its past; returns whether it moved.
    public func set(to millis: Int64) -> Bool {
        while true {
            let current = self.offset.load(ordering: .acquiring)
            let wanted = millis - self.real()
            guard wanted >= current else { return false }
            if self.offset.compareExchange(expected: current, desired: wanted, ordering: .acquiringAndReleasing).exchanged { return true }
        }
    }

    /// Back to real time.
    public func reset() {
        self.offset.store(0, ordering: .releasing)
    }
}
