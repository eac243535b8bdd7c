import APNsAuth
import APNsCore
import Crypto
import Foundation

/// APNs' answer to a push: 200, or a rejection with its reason.
public struct PushAnswer: Sendable, Equatable {
    public var status: Int
    public var reason: String?
    public var apnsID: String?
    public var uniqueID: String?
    /// The emulator's explanation of a rejection (`apns-emulator-detail`).
    public var detail: String?

    public var isAccepted: Bool { self.status == 200 }
}
