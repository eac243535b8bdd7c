import APNsAuth
import APNsCore
import Crypto
import Foundation

/// APNs' answer to a push: 200, or a rejection with its reason.
public struct PushAnswer: Sendable, Equatable {
    /// The HTTP status: 200 when APNs accepted the push.
    public var status: Int
    /// The rejection's reason (`BadDeviceToken`, `TooManyRequests`, ...), nil when accepted.
    public var reason: String?
    /// The `apns-id` the answer carried: the provider's, or one the emulator made.
    public var apnsID: String?
    /// The `apns-unique-id` of an accepted push: its id in the journal and the delivery log.
    public var uniqueID: String?
    /// The emulator's explanation of a rejection (`apns-emulator-detail`).
    public var detail: String?

    /// Whether APNs accepted it (status 200).
    public var isAccepted: Bool { self.status == 200 }
}
