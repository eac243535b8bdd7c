import APNsAdminClient
import APNsCore
import Foundation
import NIOCore

/// A one-request HTTP/1.1 client for the admin API.
public enum AdminTestClient {
    public struct Response: Sendable {
        public var status: Int
        public var body: [UInt8]
        /// The response's headers (names in lower case), in order.
        public var headers: [(name: String, value: String)] = []

        /// The first value of a header.
        public func header(_ name: String) -> String? { self.headers.first { $0.name == name.lowercased() }?.value }

        /// The body parsed as JSON.
        public func json() throws -> Any {
            guard let object = JSONValue.foundationObject(self.body) else { throw NotJSON(body: self.text) }
            return object
        }

        /// A body that is not JSON.
        public struct NotJSON: Error, CustomStringConvertible {
            public var body: String
            public var description: String { "not JSON: \(self.body.prefix(200))" }
        }

        public var text: String { String(decoding: self.body, as: UTF8.self) }
    }

    /// The admin API answered something a test did not expect.
    public struct UnexpectedResponse: Error, CustomStringConvertible {
        public let response: Response
        public var description: String { "admin API answered \(self.response.status): \(self.response.text)" }
    }

    /// How long a test waits for one answer: long (a wait the test asked for may take minutes), so
    /// that a slow machine is never the reason a test fails; a wrong answer fails it at once.
    public static let answerTimeout = TimeAmount.minutes(10)

    /// One request, through the admin client the cluster uses (`AdminHTTPClient`).
    /// `token`: the admin token, as `Authorization: Bearer`; `headers`: more (a browser's `Origin`, another `Host`).
    public static func request(
        host: String, port: Int, method: String = "GET", path: String, body: String? = nil, token: String? = nil,
        headers: [(name: String, value: String)] = []
    ) async throws -> Response {
        let answer = try await AdminHTTPClient(connectTimeout: Self.answerTimeout, token: token).request(
            "\(host):\(port)", method: method, path: path, body: Array((body ?? "").utf8), headers: headers,
            timeout: Self.answerTimeout
        ).get()
        return Response(status: answer.status, body: answer.body, headers: answer.headers)
    }
}
