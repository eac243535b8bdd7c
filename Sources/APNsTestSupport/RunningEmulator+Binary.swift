import APNsCore
import APNsWire
import NIOCore

extension RunningEmulator {
    /// Sends `stream` to the binary gateway in one write and returns the error response the
    /// emulator wrote before closing (`nil` if it closed without one). Throws if the connection
    /// is still open after `timeout`.
    /// `serverName`: the SNI sent (`gateway.push.apple.com`: production), else `localhost`.
    public func gateway(
        _ stream: BinaryStream, identity: ClientIdentity? = nil, serverName: String? = nil, timeout: TimeAmount = .seconds(10)
    ) async throws -> BinaryErrorResponse? {
        let received = try await RawTLSClient.exchange(
            host: "127.0.0.1",
            port: self.gatewayPort,
            caPath: self.caPath,
            identity: identity,
            serverName: serverName,
            sending: stream.bytes,
            timeout: timeout
        )
        var buffer = ByteBuffer(bytes: received)
        let response = BinaryErrorResponse.read(from: &buffer)
        guard buffer.readableBytes == 0 else { throw TestClientError.unexpected("gateway sent \(received)") }
        return response
    }

    /// Sends `stream` to the gateway and tells how the connection ended (bytes, reset, the TLS
    /// error): for a test that must tell a refused handshake from a silent accept.
    public func gatewaySession(_ stream: BinaryStream, identity: ClientIdentity? = nil) async throws -> RawTLSClient.Session {
        try await RawTLSClient.session(
            host: "127.0.0.1", port: self.gatewayPort, caPath: self.caPath, identity: identity, sending: stream.bytes)
    }

    /// Connects to the feedback service and tells how the connection ended.
    public func feedbackSession(identity: ClientIdentity? = nil) async throws -> RawTLSClient.Session {
        try await RawTLSClient.session(
            host: "127.0.0.1", port: self.feedbackPort, caPath: self.caPath, identity: identity, sending: [])
    }

    /// Connects to the feedback service and returns the tuples it sent before closing;
    /// `serverName`: the SNI sent (`feedback.push.apple.com`: production's list).
    public func feedbackTuples(identity: ClientIdentity? = nil, serverName: String? = nil) async throws -> [FeedbackTuple] {
        let received = try await RawTLSClient.exchange(
            host: "127.0.0.1", port: self.feedbackPort, caPath: self.caPath, identity: identity, serverName: serverName,
            sending: [])
        var buffer = ByteBuffer(bytes: received)
        var tuples: [FeedbackTuple] = []
        while let tuple = FeedbackTuple.read(from: &buffer) { tuples.append(tuple) }
        guard buffer.readableBytes == 0 else { throw TestClientError.unexpected("feedback sent a partial tuple: \(received)") }
        return tuples
    }
}
