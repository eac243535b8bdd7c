/// A violation of the device protocol: what the server answers with an error frame before closing.
public struct DeviceProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: DeviceErrorCode
    public var message: String
    /// What other protocol the bytes were (a provider's HTTP at the wrong port), if they were:
    /// not a device's mistake but a client at the wrong door, which the server journals as such.
    public var foreignProtocol: ForeignProtocol?

    public init(_ code: DeviceErrorCode, _ message: String, foreignProtocol: ForeignProtocol? = nil) {
        self.code = code
        self.message = message
        self.foreignProtocol = foreignProtocol
    }

    public var description: String { "\(self.code): \(self.message)" }
}
