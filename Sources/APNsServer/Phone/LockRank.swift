#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The phone's order of locks, lowest first: a thread holding one takes only higher ones.
enum LockRank: Int, Comparable, Sendable, CustomStringConvertible {
    /// The apps' settings and Notification Centers (``PhoneApps/Apps``).
    case apps = 1
    /// The indexes kept from the apps (tokens without a device, scheduled apps, Live Activities,
    /// web apps) and the presentation ledger: taken under the apps' lock, never one inside another.
    case index = 2
    /// The id generator and the Web Push address: taken under any of the above, nothing inside.
    case leaf = 3

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether a thread holding `held` (its highest rank) may take a lock of this rank.
    func mayBeTaken(holding held: LockRank?) -> Bool {
        held.map { $0 < self } ?? true
    }

    var description: String {
        switch self {
        case .apps: "the apps' lock"
        case .index: "an index's lock"
        case .leaf: "a leaf lock"
        }
    }

    /// The highest rank the current thread holds (debug builds keep it; `nil` when none).
    static var held: LockRank? {
        get { pthread_getspecific(heldKey).flatMap { LockRank(rawValue: Int(bitPattern: $0)) } }
        set { pthread_setspecific(heldKey, newValue.flatMap { UnsafeRawPointer(bitPattern: $0.rawValue) }) }
    }

    /// The thread-specific slot holding ``held``.
    private static let heldKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
