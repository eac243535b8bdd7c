/// When the store writer keeps looking for work instead of sleeping (`StoreConfiguration.writerSpin`).
///
/// Looking pays only while requests follow each other closely (one client sending one request
/// at a time): it is allowed after work came during a look or soon after a short sleep, and stops
/// when a look finds nothing. Sporadic work leaves the writer asleep. A zero window never looks.
/// Writer thread only.
struct WriterSpin {
    let window: Duration
    private var allowed = false
    private var idleSince: ContinuousClock.Instant?
    private var slept: Duration?

    init(window: Duration) { self.window = window }

    /// Whether to look again rather than sleep, at `now`, if the inbox is empty.
    func looking(at now: ContinuousClock.Instant) -> Bool {
        self.allowed && (self.idleSince.map { now - $0 < self.window } ?? true)
    }

    /// The inbox was empty while looking: the look goes on (it began at `now` if it had not).
    mutating func foundNothing(at now: ContinuousClock.Instant) {
        if self.idleSince == nil { self.idleSince = now }
    }

    /// The writer stopped looking: with work (`found`), or to sleep.
    mutating func stopped(found: Bool) {
        if found {
            if self.idleSince != nil {
                self.allowed = true
            } else if let slept = self.slept {
                self.allowed = slept < self.window * 4
            }
        } else {
            self.allowed = false
        }
        self.idleSince = nil
        self.slept = nil
    }

    /// The writer slept this long.
    mutating func woke(after slept: Duration) {
        self.slept = slept
    }
}
