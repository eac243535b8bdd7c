/// The `apns-priority` of a notification: 10 (immediately), 5 (power considerations), 1 (prioritise power).
public struct Priority: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    private init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let immediate = Priority(10)
    public static let conservePower = Priority(5)
    public static let prioritizePower = Priority(1)

    /// The priority with this numeric value, or `nil` for a value APNs answers with BadPriority.
    public init?(rawValue: UInt8) {
        switch rawValue {
        case 10: self = .immediate
        case 5: self = .conservePower
        case 1: self = .prioritizePower
        default: return nil
        }
    }

    public var description: String { String(self.rawValue) }
}
