import APNsCore
import Foundation

/// One push as a provider sends it: the device token (hex), the `apns-*` headers and the payload.
public struct ProviderPush: Sendable {
    public var token: String
    /// Header names in lower case, in order (`apns-topic`, `apns-push-type`, `authorization`...).
    public var headers: [(String, String)]
    public var payload: [UInt8]
    /// `POST /3/device/<token>` unless set: channel management and broadcasts go elsewhere.
    public var method = "POST"
    public var path: String?

    public init(token: String, headers: [(String, String)], payload: [UInt8]) {
        self.token = token
        self.headers = headers
        self.payload = payload
    }
}
