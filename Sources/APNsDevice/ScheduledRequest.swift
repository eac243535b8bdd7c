import APNsCore
import Foundation

/// What scheduling answers: the request with its next fire time, and the identifiers of those
/// the 64-request limit pushed out.
public struct ScheduledRequest: Hashable, Sendable, Decodable {
    public var request: LocalNotificationRequest
    public var evicted: [String]
}
