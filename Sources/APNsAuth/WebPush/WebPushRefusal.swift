import APNsCore
import Crypto
import Foundation

/// An answer Apple's push service gives a Web Push request it refuses: the status, the `reason` of
/// its `{"reason": …}` body, and the emulator's explanation of which rule failed.
public struct WebPushRefusal: Error, Equatable, Sendable {
    public var status: Int
    public var reason: String
    public var explanation: String

    public init(status: Int, reason: String, explanation: String) {
        (self.status, self.reason, self.explanation) = (status, reason, explanation)
    }

    public static func badJwtToken(_ explanation: String) -> WebPushRefusal {
        WebPushRefusal(status: 403, reason: "BadJwtToken", explanation: explanation)
    }
}
