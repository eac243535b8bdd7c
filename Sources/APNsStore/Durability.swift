import Foundation

/// How hard the store works to keep a commit on disk before acknowledging it.
public enum Durability: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Every commit is synced before anything in it is acknowledged: a 200 survives a crash.
    case durable
    /// Commits are not synced; the store syncs periodically. For load tests, where speed beats crash safety.
    case relaxed

    public var description: String { self.rawValue }
}
