import APNsCore

/// How much history the store keeps: the notifications that left their queues (delivered,
/// expired, discarded, replaced, dropped) and the requests providers got an error for. Past any
/// of the three limits the oldest go first (by when they entered the history); a notification
/// still queued for a device is never history, so never goes.
public struct Retention: Sendable, Equatable {
    /// The most entries kept.
    public var count: Int
    /// The most bytes the history's pages take in the map.
    public var bytes: Int
    /// How long an entry is kept; nil: no limit.
    public var age: Duration?

    /// A million entries or 2 GiB, whichever comes first, for as long as they fit.
    public static let standard = Retention(count: 1_000_000, bytes: 2 << 30, age: nil)

    public init(count: Int, bytes: Int, age: Duration?) {
        self.count = count
        self.bytes = bytes
        self.age = age
    }

    /// Reads `--retain`: comma-separated limits, each a count (`500000`), a size (`512MiB`,
    /// `2GiB`, `100MB`, `4096B`) or an age (`90m`, `24h`, `7d`); a limit not named keeps its
    /// default. Throws a message naming the part that is none of these.
    public init(parsing text: String, defaults: Retention = .standard) throws(RetentionError) {
        self = defaults
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty, !parts.contains(where: \.isEmpty) else { throw RetentionError(part: text) }
        for part in parts {
            if let count = Int(part), count >= 1 {
                self.count = count
            } else if let bytes = Self.bytes(part) {
                self.bytes = bytes
            } else if part.last.map({ "smhd".contains($0) }) == true, let age = DurationText.parse(part), age > .zero {
                self.age = age
            } else {
                throw RetentionError(part: part)
            }
        }
    }

    /// A size with its unit: B, KB/MB/GB (powers of 1000), KiB/MiB/GiB (powers of 1024).
    private static func bytes(_ text: String) -> Int? {
        let units: [(String, Int)] = [
            ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40),
            ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("TB", 1_000_000_000_000), ("B", 1),
        ]
        for (unit, scale) in units where text.hasSuffix(unit) {
            guard let value = Double(text.dropLast(unit.count)), value.isFinite, value > 0, value * Double(scale) < 1e18 else {
                return nil
            }
            return max(1, Int(value * Double(scale)))
        }
        return nil
    }
}
