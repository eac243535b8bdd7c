import APNsAuth
import APNsCore
import APNsProviderClient
import APNsServer
import APNsTestSupport
import Foundation
import NIOCore
import NIOHTTP2
import Testing

/// `--auth strict` with client certificates on the HTTP/2 API, over real mutual TLS.
@Suite("Client certificates on HTTP/2 in strict mode")
struct ProviderCertificateAuthTests {
    static let device = String(repeating: "cd", count: 32)
    static let app = "com.example.app"
    static let universal: [(topic: String, kind: String)] = [
        (app, "app"), (app + ".voip", "voip"), (app + ".complication", "complication"),
    ]

    static func strict(_ configure: @escaping (inout EmulatorConfiguration) -> Void = { _ in }) async throws -> RunningEmulator {
        try await RunningEmulator.start {
            $0.auth = .strict
            configure(&$0)
        }
    }

    static func push(_ client: HTTP2TestClient, topic: String?, pushType: String? = nil) async throws -> HTTP2TestClient.Response
    {
        try await client.push(token: Self.device, topic: topic, pushType: pushType)
    }

    @Test("a single-topic certificate pushes to its bundle id with or without apns-topic; all streams from the start")
    func singleTopic() async throws {
        let emulator = try await Self.strict { $0.storagePolicy = .all }
        let client = try await emulator.http2Client(identity: try emulator.providerIdentity(uid: Self.app))
        #expect(try await Self.push(client, topic: nil).status == 200)
        #expect(try await Self.push(client, topic: Self.app).status == 200)
        let queued = try await emulator.queued(Self.device)
        #expect(queued.count == 2)
        #expect(queued.allSatisfy { $0["topic"] as? String == Self.app })
        #expect(client.events.settings.filter { $0.parameter == .maxConcurrentStreams }.map(\.value) == [1000])
        try await emulator.stop()
    }

    @Test("a universal certificate: no apns-topic is 400 MissingTopic, its topics pass, others are 400 TopicDisallowed")
    func multiTopic() async throws {
        let emulator = try await Self.strict()
        let identity = try emulator.providerIdentity(
            uid: Self.app, topics: Self.universal, environments: [.development, .production])
        let client = try await emulator.http2Client(identity: identity)
        let missing = try await Self.push(client, topic: nil)
        #expect(missing.status == 400)
        #expect(missing.reason == "MissingTopic")
        #expect(try await Self.push(client, topic: Self.app + ".voip", pushType: "voip").status == 200)
        #expect(try await Self.push(client, topic: Self.app + ".complication", pushType: "complication").status == 200)
        let other = try await Self.push(client, topic: "com.example.other")
        #expect(other.status == 400)
        #expect(other.reason == "TopicDisallowed")
        #expect(try await emulator.queued(Self.device).count == 2)
        try await emulator.stop()
    }

    @Test("a trusted certificate that names no topic: 403 BadCertificate")
    func noTopic() async throws {
        let emulator = try await Self.strict()
        let client = try await emulator.http2Client(identity: try emulator.providerIdentity(uid: nil))
        let response = try await Self.push(client, topic: Self.app)
        #expect(response.status == 403)
        #expect(response.reason == "BadCertificate")
        #expect(try await emulator.queued(Self.device).isEmpty)
        try await emulator.stop()
    }

    @Test("a production certificate on a development emulator: 403 BadCertificateEnvironment; and the reverse")
    func environment() async throws {
        for (emulatorEnvironment, certificateEnvironment) in [
            (APNsEnvironment.development, APNsEnvironment.production), (.production, .development),
        ] {
            let emulator = try await Self.strict { $0.environment = emulatorEnvironment }
            let client = try await emulator.http2Client(
                identity: try emulator.providerIdentity(uid: Self.app, environments: [certificateEnvironment]))
            let response = try await Self.push(client, topic: Self.app)
            #expect(response.status == 403)
            #expect(response.reason == "BadCertificateEnvironment")
            let matching = try await emulator.http2Client(
                identity: try emulator.providerIdentity(uid: Self.app, environments: [emulatorEnvironment]))
            #expect(try await Self.push(matching, topic: Self.app).status == 200)
            #expect(try await emulator.queued(Self.device).count == 1)
            try await emulator.stop()
        }
    }

    @Test("a certificate from an untrusted CA fails the handshake; one from a --provider-ca is accepted")
    func trust() async throws {
        let elsewhere = try TemporaryDirectory()
        try DevelopmentCertificates.generate(into: elsewhere.appending("ca"))
        let foreign = try ClientIdentity.mint(
            signedBy: elsewhere.appending("ca"), into: elsewhere.appending("client"), uid: Self.app)

        let emulator = try await Self.strict()
        // TLS 1.3: the client's side of the handshake completes before the server has judged its
        // certificate, so the refusal reaches the client as its stream closed unanswered, or, when
        // the server's alert and close came before the client wrote its request, as a write on a
        // closed channel. Any other outcome fails.
        do {
            let client = try await emulator.http2Client(identity: foreign)
            let answer = try await Self.push(client, topic: Self.app)
            Issue.record("a push over an untrusted certificate's connection was answered \(answer.status)")
        } catch let error as ProviderClientError {
            #expect(error == ProviderClientError("the stream closed before APNs answered"))
        } catch let error as ChannelError {
            #expect(error == .ioOnClosedChannel)
        }
        #expect(try await emulator.queued(Self.device).isEmpty)
        try await emulator.stop()

        let trusting = try await Self.strict { $0.providerCAPaths = [elsewhere.appending("ca/ca.pem")] }
        let client = try await trusting.http2Client(identity: foreign)
        #expect(try await Self.push(client, topic: Self.app).status == 200)
        try await trusting.stop()
    }

    @Test("a provider token on a connection with a certificate is checked as a token")
    func tokenOverCertificate() async throws {
        let emulator = try await Self.strict()
        let client = try await emulator.http2Client(identity: try emulator.providerIdentity(uid: Self.app))
        let response = try await client.push(
            token: Self.device, headers: [("authorization", "bearer nonsense"), ("apns-topic", Self.app)])
        #expect(response.status == 403)
        #expect(response.reason == "InvalidProviderToken")
        try await emulator.stop()
    }

    @Test("--auth none does not ask for a certificate: any topic goes")
    func noneMode() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client(identity: try emulator.providerIdentity(uid: Self.app))
            #expect(try await Self.push(client, topic: "com.example.other").status == 200)
        }
    }
    @Test("a location push needs token-based authentication: with a certificate it is 403 MissingProviderToken, saying so")
    func locationNeedsToken() async throws {
        // Apple lists location pushes as token-based only (the issue's source: "Sending notification
        // requests to APNs"; providers such as Ably refuse them without token authentication, error 40180).
        let emulator = try await Self.strict()
        let identity = try emulator.providerIdentity(
            uid: Self.app, topics: [(Self.app + ".location-query", "location-query")], environments: [.development])
        let client = try await emulator.http2Client(identity: identity)
        let response = try await Self.push(client, topic: Self.app + ".location-query", pushType: "location")
        #expect(response.status == 403 && response.reason == "MissingProviderToken")
        #expect(response.header("apns-emulator-detail")?.contains("token-based") == true)
        try await emulator.stop()
    }
}
