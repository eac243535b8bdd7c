import APNsAuth
import APNsEmulatorTesting
import Crypto
import Foundation
import Testing

/// subscribeWebApp and webPush as a web server's Swift test uses them: the server under test
/// (here curl with a VAPID JWT and an RFC 8291 body made in the test) pushes to the endpoint.
@Suite("TestEmulator: Web Push")
struct WebPushTestingTests {
    static func base64URL(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `Authorization: vapid t=<JWT>, k=<key>` for `audience` (RFC 8292), ES256.
    static func vapid(_ key: P256.Signing.PrivateKey, audience: String, subject: String) throws -> String {
        let header = Self.base64URL(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let exp = Int(Date().timeIntervalSince1970) + 3600
        let claims = Self.base64URL(Data(#"{"aud":"\#(audience)","exp":\#(exp),"sub":"\#(subject)"}"#.utf8))
        let signature = try key.signature(for: Data("\(header).\(claims)".utf8))
        return
            "vapid t=\(header).\(claims).\(Self.base64URL(signature.rawRepresentation)), k=\(Self.base64URL(key.publicKey.x963Representation))"
    }

    @Test("a declarative web push reaches the subscribed Home Screen web app, decrypted and shown")
    func declarative() async throws {
        let emulator = try await TestEmulator.start()
        let vapidKey = P256.Signing.PrivateKey()
        let app = try await emulator.subscribeWebApp(applicationServerKey: Self.base64URL(vapidKey.publicKey.x963Representation))
        #expect(app.endpoint.hasPrefix("https://127.0.0.1:\(emulator.webPushPort)/push/"))

        let message = #"{"web_push": 8030, "notification": {"title": "Ready", "navigate": "https://app.example/r"}}"#
        let receiver = try #require(Base64URL.decode(app.p256dh.utf8))
        let auth = try #require(Base64URL.decode(app.auth.utf8))
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let body = try WebPushEncryption.encrypt(
            Array(message.utf8), receiverKey: receiver, authSecret: auth, salt: salt, senderKey: P256.KeyAgreement.PrivateKey())
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webpush-\(UUID().uuidString)").path
        try Data(body).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let origin = "https://127.0.0.1:\(emulator.webPushPort)"
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = [
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", emulator.caPath, "-X", "POST",
            "-H", "Authorization: \(try Self.vapid(vapidKey, audience: origin, subject: "mailto:ops@app.example"))",
            "-H", "TTL: 60", "-H", "Content-Encoding: aes128gcm", "--data-binary", "@\(file)", app.endpoint,
        ]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        curl.waitUntilExit()
        let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == "201")

        let received = try await emulator.webPush(app)
        #expect(received.outcome == "declarative" && received.shown && received.title == "Ready")
        #expect(received.navigate == "https://app.example/r" && received.message == message)
        #expect(received.vapidSubject == "mailto:ops@app.example")
        try await emulator.shutdown()
    }
}
