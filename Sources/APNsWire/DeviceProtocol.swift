import APNsCore

/// Limits of the device protocol.
public enum DeviceProtocol {
    /// The newest protocol version; version 1 sessions work as before.
    public static let version: UInt8 = 4
    public static let versions: ClosedRange<UInt8> = 1...4
    /// The largest frame length (type byte plus body).
    public static let maximumFrameLength = 65_536
    /// The longest device id and topic, in bytes.
    public static let maximumIdentifierLength = 128
    public static let maximumTopicLength = 255
}
