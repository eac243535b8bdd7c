import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `Mutex` with a rank in the phone's order of locks: a thread holding a lock may take only a
/// lock of a higher rank. The order is checked in debug builds (every test run), where taking
/// locks the other way round stops the process with both ranks named, instead of deadlocking
/// one day under load; release builds take the lock alone.
///
/// The phone's ranks are ``LockRank``'s cases.
///
/// Thread-safe.
struct RankedMutex<Value>: ~Copyable, Sendable {
    let rank: LockRank
    private let mutex: Mutex<Value>

    init(_ rank: LockRank, _ value: consuming sending Value) {
        self.rank = rank
        self.mutex = Mutex(value)
    }

    /// `Mutex.withLock`, after checking that the thread holds no lock of this rank or higher.
    borrowing func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if DEBUG
        let held = LockRank.held
        precondition(
            self.rank.mayBeTaken(holding: held),
            "lock order: \(self.rank) taken while holding \(held.map { "\($0)" } ?? "nothing")")
        LockRank.held = self.rank
        defer { LockRank.held = held }
        #endif
        return try self.mutex.withLock(body)
    }
}
