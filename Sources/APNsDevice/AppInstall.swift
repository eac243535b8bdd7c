/// One app on one device: what the phone keeps its settings under. A token the emulator did not
/// issue has no device; its own hex stands for the device.
public struct AppInstall: Hashable, Sendable, CustomStringConvertible {
    public var deviceID: String
    public var topic: String

    public init(deviceID: String, topic: String) {
        self.deviceID = deviceID
        self.topic = topic
    }

    public var description: String { "\(self.topic) on \(self.deviceID)" }
}
