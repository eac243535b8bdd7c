import APNsCore
import Foundation

/// APNs' answer to one push: the status, the headers (`apns-id`, `apns-unique-id`, warnings...)
/// and the body (a JSON `reason` when refused).
public struct ProviderAnswer: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header.
    public func header(_ name: String) -> String? { self.headers.first { $0.name == name }?.value }

    /// The JSON error body's `reason` and `timestamp` (a 410's), when APNs refused.
    public var error: (reason: String?, timestamp: Int64?) {
        let body = JSONValue.parse(self.body)
        return (body?["reason"]?.string, body?["timestamp"]?.number.flatMap { Int64(exactly: $0) })
    }

    /// `200 OK`, or the status and reason APNs refused with.
    public var outcome: String {
        // The channel APIs answer 201 (created) and 204 (deleted) as well as 200, without a reason.
        let success = [200: "OK", 201: "Created", 204: "No Content"]
        return "\(self.status) \(self.error.reason ?? success[self.status] ?? "(no reason)")"
    }

    /// Every value of a header, in order.
    public func headers(_ name: String) -> [String] { self.headers.filter { $0.name == name }.map(\.value) }
}
