import APNsCore
import APNsDevice
import Foundation

/// The body of `POST /api/v1/push`: a push the emulator sends to its own HTTP/2 provider API, as
/// a provider would (the web inbox's send form). `{"token", "topic"?, "pushType"?, "priority"?,
/// "expiration"?, "collapseId"?, "id"?, "authorization"?, "environment"?, "payload"}`; the payload is a JSON
/// object, or a string sent as it is (to see how APNs answers a malformed one). Only the shape is
/// checked here: APNs' own validation answers the rest.
public struct PushDocument: Decodable, Sendable {
    public var token: String
    public var payload: [UInt8]
    /// The request's headers, named as APNs names them, in a fixed order.
    public var headers: [(String, String)]
    /// The endpoint it is sent to: `development` (or `sandbox`) or `production`; nil for
    /// `--environment`'s, the one `--http2-port` serves.
    public var environment: APNsEnvironment?

    public static let example = #"{"token": "<hex>", "topic": "com.example.app", "payload": {"aps": {"alert": "Hello"}}}"#

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case token, topic, pushType, priority, expiration, collapseId, id, authorization, environment, payload
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a push")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.token = try container.decode(String.self, forKey: .token)
        // The token goes into the request's path: letters and digits only (APNs says whether it is a token).
        guard !self.token.isEmpty, self.token.utf8.count <= 200,
            self.token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else {
            throw InspectionError(
                .badDocument, field: "token", "token is the device token in hex (letters and digits, at most 200)")
        }
        var headers: [(String, String)] = []
        // A field is there with its type, or absent: null is neither.
        func add<T: Decodable & CustomStringConvertible>(_ name: String, _ key: CodingKeys, as type: T.Type = String.self) throws
        {
            if container.contains(key) { headers.append((name, try container.decode(T.self, forKey: key).description)) }
        }
        try add("apns-topic", .topic)
        try add("apns-push-type", .pushType)
        try add("apns-priority", .priority, as: Int.self)
        try add("apns-expiration", .expiration, as: Int64.self)
        try add("apns-collapse-id", .collapseId)
        try add("apns-id", .id)
        try add("authorization", .authorization)
        // RFC 9113 section 8.2.1: a field value with a control character, or that starts or ends
        // with a space or tab, makes the request malformed; the provider API would reset its stream.
        for (name, value) in headers {
            if value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                throw InspectionError(.badDocument, field: name, "\(name) must not hold control characters")
            }
            if let edge = [value.utf8.first, value.utf8.last].compactMap({ $0 }).first(where: { $0 == 0x20 || $0 == 0x09 }) {
                let what = edge == 0x20 ? "a space" : "a tab"
                throw InspectionError(
                    .badDocument, field: name, "\(name) must not start or end with \(what) (RFC 9113 section 8.2.1)")
            }
        }
        self.headers = headers
        // Absent, or a string: null is neither (as the headers' fields).
        if container.contains(.environment) {
            let name = try container.decode(String.self, forKey: .environment)
            guard let environment = APNsEnvironment(name: name) else {
                throw InspectionError(
                    .badDocument, field: "environment", "environment is development (the sandbox) or production, not \(name)")
            }
            self.environment = environment
        }
        if let text = try? container.decode(String.self, forKey: .payload) {
            self.payload = Array(text.utf8)
        } else {
            let value = try container.decode(JSONValue.self, forKey: .payload)
            guard case .object = value else {
                throw InspectionError(.badDocument, field: "payload", "payload is a JSON object (or a string sent as it is)")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            self.payload = Array(try encoder.encode(value))
        }
    }
}
