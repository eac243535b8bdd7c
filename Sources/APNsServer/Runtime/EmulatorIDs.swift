import APNsCore

/// The emulator's one generator of the ids no connection numbers: a web push's `apns-id` and
/// unique id and its refusals' ids, the phone's local notifications. Time-ordered (version 7), as
/// every id the emulator makes, and mapped to this emulator's shard when it is one of several;
/// and the device tokens the emulator issues (to devices, through the admin API, ActivityKit's).
/// The assembly makes it once; the phone and the intake are each handed it. Thread-safe (a leaf lock).
final class EmulatorIDs: Sendable {
    /// The shard every id made here maps to (and the tokens the phone issues), if any.
    let shard: Shard?
    private let generator: RankedMutex<APNsIDGenerator>

    init(shard: Shard?) {
        self.shard = shard
        self.generator = RankedMutex(.leaf, APNsIDGenerator(shard: shard))
    }

    /// A time-ordered id for `nowMillis`.
    func timeOrdered(nowMillis: Int64) -> String {
        self.generator.withLock { $0.timeOrderedUUID(nowMillis: nowMillis) }
    }

    /// Two such ids under one taking of the lock (a web push's `apns-id` and unique id).
    func timeOrderedPair(nowMillis: Int64) -> (String, String) {
        self.generator.withLock { ($0.timeOrderedUUID(nowMillis: nowMillis), $0.timeOrderedUUID(nowMillis: nowMillis)) }
    }

    /// A new device token: 32 random bytes, whose first byte maps to this emulator's shard.
    func newToken() -> DeviceToken { self.shard?.randomToken() ?? DeviceToken.random() }
}
