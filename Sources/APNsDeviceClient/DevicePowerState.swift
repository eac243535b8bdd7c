import APNsDevice
import APNsWire
import Foundation

/// A device's power state as the server reports it.
public struct DevicePowerState: Decodable, Hashable, Sendable {
    public var deviceId: String
    public var online: Bool
    public var lowPowerMode: Bool
    public var locked: Bool

    public init(deviceId: String, online: Bool, lowPowerMode: Bool, locked: Bool) {
        self.deviceId = deviceId
        self.online = online
        self.lowPowerMode = lowPowerMode
        self.locked = locked
    }
}
