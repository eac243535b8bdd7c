/// The error codes of the device protocol (docs/device-protocol.md), one table.
public struct DeviceErrorCode: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public let name: String

    private init(_ rawValue: UInt8, _ name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    public static let malformedFrame = DeviceErrorCode(1, "malformedFrame")
    public static let unknownMessage = DeviceErrorCode(2, "unknownMessage")
    public static let unexpectedMessage = DeviceErrorCode(3, "unexpectedMessage")
    public static let unsupportedVersion = DeviceErrorCode(4, "unsupportedVersion")
    public static let frameTooLarge = DeviceErrorCode(5, "frameTooLarge")
    public static let invalidArgument = DeviceErrorCode(6, "invalidArgument")
    public static let internalError = DeviceErrorCode(7, "internalError")
    /// The emulator asks devices for its admin token (`--require-device-token`), and the hello
    /// had none or another.
    public static let unauthorized = DeviceErrorCode(8, "unauthorized")

    public static let all: [DeviceErrorCode] = [
        .malformedFrame, .unknownMessage, .unexpectedMessage, .unsupportedVersion, .frameTooLarge, .invalidArgument,
        .internalError, .unauthorized,
    ]

    /// The code with this byte; unknown bytes keep their value under the name "unknown".
    public init(rawValue: UInt8) {
        self = DeviceErrorCode.all.first { $0.rawValue == rawValue } ?? DeviceErrorCode(rawValue, "unknown")
    }

    public var description: String { "\(self.name) (\(self.rawValue))" }
}
