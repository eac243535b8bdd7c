import APNsAuth
import APNsCore
import APNsProviderClient
import Crypto
import Foundation

extension TestEmulator {

    /// Sends a push over HTTP/2 and TLS to the provider API, as a provider does; APNs' answer.
    /// `environment` is the endpoint (nil: ``http2Port``'s, the sandbox unless configured
    /// otherwise): a token of the other environment's build is 400 BadDeviceToken, as at Apple.
    public func push(
        token: String, topic: String? = nil, payload: String = #"{"aps":{"alert":"hello"}}"#, pushType: String? = nil,
        priority: Int? = nil,
        headers: [(String, String)] = [],
        environment: APNsEnvironment? = nil
    ) async throws -> PushAnswer {
        var sent: [(String, String)] = []
        if let topic { sent.append(("apns-topic", topic)) }
        if let pushType { sent.append(("apns-push-type", pushType)) }
        if let priority { sent.append(("apns-priority", String(priority))) }
        let client = try await ProviderClient.connect(
            host: self.host, port: environment == .production ? self.productionHTTP2Port : self.http2Port,
            trust: .certificates(Array(self.caPEM.utf8)))
        defer { Task { try? await client.close() } }
        let answer = try await client.push(ProviderPush(token: token, headers: sent + headers, payload: Array(payload.utf8)))
        return PushAnswer(
            status: answer.status, reason: answer.error.reason, apnsID: answer.header("apns-id"),
            uniqueID: answer.header("apns-unique-id"),
            detail: answer.header("apns-emulator-detail"))
    }

    /// A provider-token key the emulator trusts at once (for `.strict`): its `.p8` PEM, key id and
    /// team id, as a provider library takes them.
    public func createKey(
        keyID: String = "KEY1234567", teamID: String = "TEAM123456", topics: [String] = []
    ) throws -> ProviderSigningKey {
        let key = P256.Signing.PrivateKey()
        try ProviderKeyStore.register(
            ProviderKey(keyID: keyID, teamID: teamID, publicKey: key.publicKey, topics: topics),
            in: self.emulator.configuration.keysDirectory)
        return ProviderSigningKey(keyID: keyID, teamID: teamID, p8: key.pemRepresentation)
    }
}
