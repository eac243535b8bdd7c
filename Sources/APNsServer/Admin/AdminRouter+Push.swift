import APNsCore
import APNsInspection
import Foundation
import APNsProviderClient
import NIOCore

/// `POST /api/v1/push`: the emulator sends a push to its own HTTP/2 provider API, over TLS, as a
/// provider would; the answer is APNs' answer (`{"status", "apnsId", "uniqueId", "reason",
/// "timestamp", "warnings"}`). The web inbox's send form uses it.
extension AdminRouter {
    /// How long the answer is waited for: a delay fault may hold it longer (202 then: sent, not
    /// answered yet; the push shows in the journal once it is).
    static let pushAnswerTimeout = TimeAmount.seconds(8)

    func push(body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let document: PushDocument
        do {
            document = try RequestDocument.decode(PushDocument.self, from: body, example: PushDocument.example)
        } catch {
            return eventLoop.makeSucceededFuture(Self.error(400, error.message))
        }
        guard var address = self.readiness.address(.http2), let port = address.port else {
            return eventLoop.makeSucceededFuture(Self.error(503, "the HTTP/2 provider API is not listening yet"))
        }
        // A listener on every interface is reached on the loopback one.
        if address.ipAddress == "0.0.0.0" || address.ipAddress == "::" {
            address = (try? SocketAddress(ipAddress: address.ipAddress == "::" ? "::1" : "127.0.0.1", port: port)) ?? address
        }
        let host = address.ipAddress ?? "127.0.0.1"
        let push = ProviderPush(token: document.token, headers: document.headers, payload: document.payload)
        return eventLoop.makeFutureWithTask {
            let client = try await ProviderClient.connect(host: host, port: port, trust: .loopback, group: eventLoop)
            do {
                let answer = try await client.push(push, timeout: Self.pushAnswerTimeout)
                try? await client.close()
                return Response(status: 200, body: Self.answerJSON(answer))
            } catch {
                try? await client.close()
                throw error
            }
        }.recover { error in
            if let error = error as? ProviderClientError, error == .timedOut {
                let message = "sent, but not answered within 8 s (a delay fault?); it shows in the journal once it is"
                return Response(status: 202, body: Array(#"{"answered":false,"message":"\#(message)"}"#.utf8))
            }
            return Self.error(502, "the push did not get an answer from the HTTP/2 provider API: \(error)")
        }
    }

    private static func answerJSON(_ answer: ProviderAnswer) -> [UInt8] {
        var writer = JSONWriter()
        let (reason, timestamp) = answer.error
        writer.object { members in
            members.member("status") { $0.number(answer.status) }
            members.member("apnsId") { $0.optionalString(answer.header("apns-id")) }
            members.member("uniqueId") { $0.optionalString(answer.header("apns-unique-id")) }
            members.member("reason") { $0.optionalString(reason) }
            members.member("timestamp") { writer in if let timestamp { writer.number(timestamp) } else { writer.raw("null") } }
            members.member("detail") { $0.optionalString(answer.header("apns-emulator-detail")) }
            members.member("warnings") { $0.array(answer.headers("apns-emulator-warning")) { $0.string($1) } }
        }
        return writer.bytes
    }
}
