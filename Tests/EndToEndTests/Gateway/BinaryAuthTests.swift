import APNsCore
import APNsServer
import APNsTestSupport
import APNsWire
import Foundation
import Testing

/// `--auth strict` on the legacy binary gateway and the feedback service: a client certificate is
/// required, its bundle id is the topic, and feedback is scoped to its topics.
@Suite("Binary gateway and feedback in strict mode")
struct BinaryAuthTests {
    static let app = "com.example.app"

    static func strict() async throws -> RunningEmulator {
        try await RunningEmulator.start { $0.auth = .strict }
    }

    @Test("the gateway without a certificate: the handshake fails and nothing is stored")
    func gatewayWithoutCertificate() async throws {
        let emulator = try await Self.strict()
        let token = try #require(DeviceToken(bytes: Array(repeating: 1, count: 32)))
        var stream = BinaryStream()
        stream.frame(token: token, n: 1, identifier: 1)
        // Closed without a byte (a server that took the connection and kept it open would time the
        // session out, which throws), and journaled as refused for want of a certificate.
        let session = try await emulator.gatewaySession(stream)
        #expect(session.received.isEmpty, "\(session)")
        let refused = try await emulator.journal("status=rejected&interface=binary")
        let detail = refused.first?["detail"] as? String ?? ""
        #expect(refused.count == 1 && detail.contains("presented no client certificate"), "\(refused)")
        #expect(try await emulator.queued(token.hex).isEmpty)
        try await emulator.stop()
    }

    @Test("with a certificate: stored for its bundle id; a token registered for another topic is status 8")
    func gatewayTopic() async throws {
        let emulator = try await Self.strict()
        let mine = try await emulator.offlineToken(topic: Self.app, device: "mine")
        let theirs = try await emulator.offlineToken(topic: "com.example.other", device: "theirs")
        var stream = BinaryStream()
        stream.frame(token: mine, n: 1, identifier: 1)
        stream.frame(token: theirs, n: 2, identifier: 2)
        stream.frame(token: mine, n: 3, identifier: 3)
        let response = try await emulator.gateway(stream, identity: try emulator.providerIdentity(uid: Self.app))
        #expect(response == BinaryErrorResponse(status: .invalidToken, identifier: 2))
        let queued = try await emulator.queued(mine.hex)
        #expect(queued.count == 1)
        #expect(queued.first?["topic"] as? String == Self.app)
        #expect(try await emulator.queued(theirs.hex).isEmpty)
        try await emulator.stop()
    }

    @Test("a certificate that names no topic: status 3 (missing topic)")
    func gatewayNoTopic() async throws {
        let emulator = try await Self.strict()
        let token = try #require(DeviceToken(bytes: Array(repeating: 2, count: 32)))
        var stream = BinaryStream()
        stream.frame(token: token, n: 1, identifier: 7)
        let response = try await emulator.gateway(stream, identity: try emulator.providerIdentity(uid: nil))
        #expect(response == BinaryErrorResponse(status: .missingTopic, identifier: 7))
        #expect(try await emulator.queued(token.hex).isEmpty)
        try await emulator.stop()
    }

    @Test("a certificate for the other environment: the connection is closed, nothing stored")
    func gatewayEnvironment() async throws {
        let emulator = try await Self.strict()
        let token = try #require(DeviceToken(bytes: Array(repeating: 3, count: 32)))
        var stream = BinaryStream()
        stream.frame(token: token, n: 1, identifier: 1)
        let session = try await emulator.gatewaySession(
            stream, identity: try emulator.providerIdentity(uid: Self.app, environments: [.production]))
        #expect(session.received.isEmpty, "\(session)")
        let refused = try await emulator.journal("status=rejected&interface=binary")
        let detail = refused.first?["detail"] as? String ?? ""
        #expect(refused.count == 1 && detail.contains("certificate is for production"), "\(refused)")
        #expect(try await emulator.queued(token.hex).isEmpty)
        try await emulator.stop()
    }

    @Test("feedback needs a certificate and lists only its topics' tokens")
    func feedbackScope() async throws {
        let emulator = try await Self.strict()
        let mine = try await emulator.offlineToken(topic: Self.app, device: "mine")
        let theirs = try await emulator.offlineToken(topic: "com.example.other", device: "theirs")
        for token in [mine, theirs] {
            #expect(try await emulator.admin("/api/v1/devices/\(token.hex)/unregister", method: "POST").status == 200)
        }
        // Without a certificate: closed at once, no tuple sent (a timeout throws).
        let anonymous = try await emulator.feedbackSession()
        #expect(anonymous.received.isEmpty, "\(anonymous)")

        let myTuples = try await emulator.feedbackTuples(identity: try emulator.providerIdentity(uid: Self.app))
        #expect(myTuples.map(\.token) == [mine.bytes])
        #expect(try await emulator.feedbackTuples(identity: try emulator.providerIdentity(uid: Self.app)).isEmpty)
        // The other app's tuple waits for its own provider.
        let theirTuples = try await emulator.feedbackTuples(identity: try emulator.providerIdentity(uid: "com.example.other"))
        #expect(theirTuples.map(\.token) == [theirs.bytes])
        try await emulator.stop()
    }
}
