import APNsCore

/// A binary connection's id generator, shared by every request it reads: a door copied into a
/// delayed step draws from the same sequence as the ones after it, so no two ids repeat. Used on
/// the connection's event loop only.
final class ConnectionIDs {
    private var generator: APNsIDGenerator

    init(shard: Shard?) {
        self.generator = APNsIDGenerator(shard: shard)
    }

    /// A random UUID (a refusal's journal id).
    func uuid() -> String { self.generator.uuid() }

    /// A time-ordered UUID (a notification's `apns-unique-id`).
    func timeOrderedUUID(nowMillis: Int64) -> String { self.generator.timeOrderedUUID(nowMillis: nowMillis) }
}
