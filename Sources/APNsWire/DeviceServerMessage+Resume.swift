import APNsCore
import NIOCore

/// The `resumed` message's list: each token with what became of it.
extension DeviceServerMessage {
    static func resumeResults(_ body: inout DeviceBodyReader) throws -> [ResumeResult] {
        let count = Int(try body.u16())
        var results: [ResumeResult] = []
        for _ in 0..<count {
            let token = try body.token()
            guard let status = ResumeResult.Status(rawValue: try body.u8()) else {
                throw DeviceProtocolError(.malformedFrame, "unknown resume status")
            }
            results.append(ResumeResult(token: token, status: status))
        }
        return results
    }

    static func write(_ results: [ResumeResult], into body: inout ByteBuffer) {
        body.writeInteger(UInt16(results.count))
        for result in results {
            body.writeDeviceToken(result.token)
            body.writeInteger(result.status.rawValue)
        }
    }
}
