import APNsCore

/// How the server took one token a device presented in `resume`.
public struct ResumeResult: Hashable, Sendable {
    public enum Status: UInt8, Sendable {
        case resumed = 0
        case unknown = 1
        case unregistered = 2
    }

    public var token: DeviceToken
    public var status: Status

    public init(token: DeviceToken, status: Status) {
        self.token = token
        self.status = status
    }
}
