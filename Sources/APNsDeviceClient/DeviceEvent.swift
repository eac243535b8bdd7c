import APNsCore
import APNsDevice
import APNsWire
import Foundation
import NIOCore

/// What the phone did, as a version-2 device hears it.
public enum DeviceEvent: Sendable {
    /// How the phone presented a notification (it follows the notification).
    case presented(uniqueID: String, Presentation)
    /// The user responded to a notification (here or through the admin API).
    case response(UserResponse)
    /// An app's settings after a change.
    case app(topic: String, AppModel)
    /// Version 3: a Live Activity changed (`started`, `updated`, `ignored` with the reason,
    /// `stale`, `ended`, `dismissed`).
    case activity(topic: String, change: String, reason: String?, ActivitySnapshot)
    /// Version 3: ActivityKit issued a token: an activity's update token, or the app's
    /// push-to-start token (`activityID` nil).
    case activityToken(topic: String, activityID: String?, token: DeviceToken)
    /// The device's power state changed (through the admin API, or as asked here).
    case power(DevicePowerState)
    /// Version 4: the phone asks the app's service extension on this device (the app declared
    /// `"serviceExtension": {"device": true}`) for the content to show; answer with
    /// ``DeviceClient/extended(_:content:)`` before the extension's time runs out.
    case extend(uniqueID: String, ExtensionContent)
}
