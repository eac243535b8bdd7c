/// A violation of the device protocol: what the server answers with an error frame before closing.
public struct DeviceProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: DeviceErrorCode
    public var message: String

    public init(_ code: DeviceErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(self.code): \(self.message)" }
}
