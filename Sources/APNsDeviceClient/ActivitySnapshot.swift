import APNsCore
import APNsDevice
import APNsWire
import Foundation

/// A Live Activity as the device protocol shows it (the admin API's activity document).
public struct ActivitySnapshot: Decodable, Hashable, Sendable {
    public var id: String
    /// The `attributes-type`.
    public var type: String
    public var attributes: JSONValue
    public var contentState: JSONValue
    /// ActivityKit's `ActivityState`: active, stale, ended, dismissed, pending (iOS 26: scheduled).
    public var activityState: String
    /// A scheduled activity's start (RFC 3339), pending until then.
    public var scheduledStart: String?
    public var updateToken: String?
    public var relevanceScore: Double
    public var staleDate: String?
    public var dismissalDate: String?
}
