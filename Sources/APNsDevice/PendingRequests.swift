import APNsCore
import Foundation

/// A list of pending requests, as the admin API and the device protocol answer it.
public struct PendingRequests: Hashable, Sendable, Decodable {
    public var total: Int
    public var items: [LocalNotificationRequest]
}
