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

    /// The latest time the clock may be moved to, 9999-12-31T00:00:00Z: RFC 3339 and the
    /// clients reading the emulator's dates have four-digit years, and a day is left for the
    /// clock to go on running with real time.
    public static let latestMillis: Int64 = 253_402_214_400_000

    /// What a move did.
    public enum Move: Equatable, Sendable {
        case moved
        /// The time asked for is in the clock's past: it never goes back.
        case past
        /// The time asked for is after ``latestMillis``.
        case tooLate
    }

    /// Moves the clock forward by `millis` (a negative amount does nothing: never back), unless
    /// that takes it past ``latestMillis``.
    @discardableResult
    public func advance(by millis: Int64) -> Move {
        while true {
            let current = self.offset.load(ordering: .acquiring)
            let (wanted, overflow) = current.addingReportingOverflow(max(0, millis))
            guard !overflow, wanted <= Self.latestMillis - self.real() else { return .tooLate }
            if self.offset.compareExchange(expected: current, desired: wanted, ordering: .acquiringAndReleasing).exchanged {
                return .moved
            }
        }
    }

    /// Moves the clock to `millis` if that is neither in its past nor after ``latestMillis``.
    public func set(to millis: Int64) -> Move {
        guard millis <= Self.latestMillis else { return .tooLate }
        while true {
            let current = self.offset.load(ordering: .acquiring)
            let wanted = millis - self.real()
            guard wanted >= current else { return .past }
            if self.offset.compareExchange(expected: current, desired: wanted, ordering: .acquiringAndReleasing).exchanged {
                return .moved
            }
        }
    }

    /// Back to real time.
    public func reset() {
        self.offset.store(0, ordering: .releasing)
    }
}
