import APNsCore
import APNsWire

/// What went wrong on the client side of the device protocol: a code that can grow (an open
/// set of `ErrorCode` members), the server's error code
/// when the server refused, and words for a person.
public struct DeviceClientError: Error, Hashable, Sendable, CustomStringConvertible {
    public typealias Code = ErrorCode<DeviceClientError>

    public let code: Code
    /// The server's error code, when it refused.
    public let serverCode: DeviceErrorCode?
    public let message: String

    public init(_ code: Code, serverCode: DeviceErrorCode? = nil, message: String) {
        self.code = code
        self.serverCode = serverCode
        self.message = message
    }

    /// The server refused with an error frame.
    public static func server(code: DeviceErrorCode, message: String) -> DeviceClientError {
        DeviceClientError(.refused, serverCode: code, message: message)
    }

    /// A reply of the wrong kind.
    public static func unexpectedReply(_ reply: DeviceServerMessage) -> DeviceClientError {
        DeviceClientError(.unexpectedReply, message: "\(reply)")
    }

    /// The connection closed.
    public static let closed = DeviceClientError(.closed, message: "the connection closed")

    /// The emulator declined a version-2 request without closing (`status` 400, 404 or 409).
    public static func declined(status: UInt16, message: String) -> DeviceClientError {
        DeviceClientError(.declined, message: "\(status): \(message)")
    }

    public var description: String {
        switch self.code {
        case .refused: return "the emulator refused: \(self.serverCode.map { "\($0)" } ?? "?"): \(self.message)"
        case .unexpectedReply: return "unexpected reply \(self.message)"
        default: return self.message
        }
    }
}

extension ErrorCode where Domain == DeviceClientError {
    /// The server sent an error frame and closed the connection.
    public static var refused: Self { Self("refused") }
    /// The server answered with a message the client did not ask for.
    public static var unexpectedReply: Self { Self("unexpected reply") }
    /// The connection closed.
    public static var closed: Self { Self("closed") }
    /// The server declined a version-2 request (`refused` frame); the session goes on.
    public static var declined: Self { Self("declined") }
}
