import APNsCore
import APNsWire

/// What a version-2 device asks of its app's local notifications.
enum LocalNotificationsRequest: Equatable {
    case schedule(deviceID: String, topic: String, document: [UInt8])
    case list(deviceID: String, topic: String)
    case cancel(deviceID: String, topic: String, identifier: String?)
}
