import APNsCore
import NIOCore

/// Writes APNs' HTTP/2 responses: headers and, for failures, the JSON body.
public enum HTTP2PushResponseEncoder {
    /// The header the emulator adds to a refusal when the reason alone does not say what was wrong.
    public static let detailHeader = "apns-emulator-detail"

    /// `200` with `apns-id`, plus `apns-unique-id` when given (the development environment).
    public static func success(apnsID: String, uniqueID: String?, warnings: [PushWarning] = []) -> ResponseFields {
        var headers = ResponseFields()
        headers.reserveCapacity(3 + warnings.count)
        headers.add(name: ":status", value: "200")
        // Identifiers are unique per response: indexing them would only churn the HPACK table.
        headers.add(name: "apns-id", value: apnsID, indexable: false)
        if let uniqueID { headers.add(name: "apns-unique-id", value: uniqueID, indexable: false) }
        for warning in warnings {
            // A field value holds no control characters (RFC 9110, section 5.5); payload text may.
            let value = String(
                String.UnicodeScalarView(
                    warning.description.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
            headers.add(name: "apns-emulator-warning", value: value)
        }
        return headers
    }

    /// A failure status with `apns-id`, `content-type` and the body `{"reason": ...}`; a 410 also
    /// carries `timestamp` (milliseconds) when the token stopped being valid.
    public static func failure(
        _ rejection: Rejection,
        timestamp: Int64? = nil,
        allocator: ByteBufferAllocator
    ) -> (headers: ResponseFields, body: ByteBuffer) {
        let body = self.body(reason: rejection.reason, timestamp: timestamp, allocator: allocator)
        var headers = ResponseFields()
        headers.add(name: ":status", value: String(rejection.reason.status))
        headers.add(name: "apns-id", value: rejection.apnsID, indexable: false)
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: String(body.readableBytes))
        // Every refusal explains itself: the check's own words, else what the reason means.
        let detail = rejection.detail ?? rejection.reason.explanation
        if !detail.isEmpty {
            headers.add(name: self.detailHeader, value: detail, indexable: false)
        }
        return (headers, body)
    }

    /// The JSON body APNs sends with a failure (also GOAWAY debug data).
    public static func body(reason: Reason, timestamp: Int64? = nil, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 64)
        buffer.writeString("{\"reason\":\"")
        buffer.writeString(reason.wire)
        buffer.writeString("\"")
        if let timestamp {
            buffer.writeString(",\"timestamp\":")
            buffer.writeString(String(timestamp))
        }
        buffer.writeString("}")
        return buffer
    }
}

extension HTTP2PushResponseEncoder {
    /// A channel management or broadcast success: `status` with `apns-request-id`, and
    /// `apns-channel-id` / `apns-unique-id` when given; a JSON body's `content-type`.
    public static func channelSuccess(
        status: Int, requestID: String, channelID: String?, uniqueID: String?, hasBody: Bool, warnings: [String] = []
    ) -> ResponseFields {
        var headers = ResponseFields()
        headers.add(name: ":status", value: String(status))
        headers.add(name: "apns-request-id", value: requestID, indexable: false)
        if let channelID { headers.add(name: "apns-channel-id", value: channelID, indexable: false) }
        if let uniqueID { headers.add(name: "apns-unique-id", value: uniqueID, indexable: false) }
        if hasBody { headers.add(name: "content-type", value: "application/json") }
        for warning in warnings { headers.add(name: "apns-emulator-warning", value: warning) }
        return headers
    }

    /// A channel management or broadcast refusal: as ``failure(_:timestamp:allocator:)`` but
    /// naming the request by `apns-request-id`, as those APIs do.
    public static func channelFailure(
        _ rejection: Rejection, allocator: ByteBufferAllocator
    ) -> (headers: ResponseFields, body: ByteBuffer) {
        let failure = self.failure(rejection, allocator: allocator)
        var headers = failure.headers
        headers.remove(name: "apns-id")
        headers.add(name: "apns-request-id", value: rejection.apnsID, indexable: false)
        return (headers, failure.body)
    }
}
