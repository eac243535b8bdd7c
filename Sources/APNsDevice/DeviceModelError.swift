import APNsCore

/// Why the phone model refused something: a setting that cannot be, or a response the user could
/// not have given. `field` names what was wrong (for people and for the admin API's answer).
public struct DeviceModelError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: ErrorCode<DeviceModelError>
    public let field: String
    public let message: String

    public init(_ code: ErrorCode<DeviceModelError>, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { self.message }
}

extension ErrorCode where Domain == DeviceModelError {
    /// A setting or a document that cannot be (a duplicate identifier, an unknown option).
    public static let invalid = Self("invalid")
    /// A response to a notification that is not on screen, or with an action not offered there.
    public static let notOffered = Self("notOffered")
    /// What the app asked for is refused as ActivityKit refuses it (Live Activities off, too
    /// many running, an activity already ended): a conflict with the phone's state.
    public static let refused = Self("refused")
}
