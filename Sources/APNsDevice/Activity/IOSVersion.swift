/// An iOS version (`17.2`, `18.0`), compared by its numbers.
public struct IOSVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var parts: [Int]

    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        let parts = pieces.compactMap { Int($0) }.filter { $0 >= 0 }
        guard (1...3).contains(pieces.count), parts.count == pieces.count else { return nil }
        self.parts = parts
    }

    public static func < (lhs: IOSVersion, rhs: IOSVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let (l, r) = (lhs.parts.count > index ? lhs.parts[index] : 0, rhs.parts.count > index ? rhs.parts[index] : 0)
            if l != r { return l < r }
        }
        return false
    }

    public var description: String { self.parts.map(String.init).joined(separator: ".") }

    /// Push-to-start tokens arrived in iOS 17.2.
    public static let pushToStart = IOSVersion(parts: [17, 2])
    /// `input-push-token` and `input-push-channel` (and broadcast channels) in iOS 18.
    public static let inputPush = IOSVersion(parts: [18, 0])
    /// Scheduled Live Activities (`Activity.request(...start:)`, `ActivityState.pending`), iOS 26.
    public static let scheduledActivities = IOSVersion(parts: [26, 0])
    /// Live Activities themselves, iOS 16.1.
    public static let liveActivities = IOSVersion(parts: [16, 1])

    init(parts: [Int]) { self.parts = parts }
}
