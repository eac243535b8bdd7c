import APNsCore
import APNsDeviceClient
import APNsServer
import APNsTestSupport
import APNsWire
import Foundation
import NIOCore
import Testing

/// The legacy binary gateway over real TLS sockets.
@Suite("Binary gateway")
struct BinaryGatewayTests {
    static let token = DeviceToken(hex: String(repeating: "c4", count: 32))!

    /// The `n` of each notification queued for `token`, oldest first.
    func queuedNumbers(_ emulator: RunningEmulator, _ token: DeviceToken = Self.token) async throws -> [Int] {
        try await emulator.queued(token.hex).compactMap { ($0["payload"] as? [String: Any])?["n"] as? Int }
    }

    @Test("N good, 1 bad, M good pipelined: N stored, one error frame naming the bad one, the M discarded")
    func pipelinedFailure() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all }) { emulator in
            var stream = BinaryStream()
            for n in 0..<500 { stream.frame(token: Self.token, n: n, identifier: UInt32(1000 + n)) }
            stream.frame(
                BinaryPushRequest(
                    command: 2, identifier: 4242, token: Array(repeating: 1, count: 16), payload: BinaryStream.payload(-1)))
            for n in 500..<800 { stream.frame(token: Self.token, n: n, identifier: UInt32(1000 + n)) }

            let response = try await emulator.gateway(stream)
            #expect(response == BinaryErrorResponse(status: .invalidTokenSize, identifier: 4242))
            #expect(try await self.queuedNumbers(emulator) == Array(0..<500))
        }
    }

    /// One good notification, then `bad`: the good one is stored and `bad` earns `status`.
    static let faults: [(name: String, status: BinaryStatus, identifier: UInt32, write: @Sendable (inout BinaryStream) -> Void)] =
        [
            (
                "no token item", .missingDeviceToken, 11,
                { $0.frame(BinaryPushRequest(command: 2, identifier: 11, token: [], payload: BinaryStream.payload(1))) }
            ),
            (
                "a 33-byte token", .invalidTokenSize, 12,
                {
                    $0.frame(
                        BinaryPushRequest(
                            command: 2, identifier: 12, token: Array(repeating: 2, count: 33), payload: BinaryStream.payload(1)))
                }
            ),
            (
                "no payload", .missingPayload, 13,
                { $0.frame(BinaryPushRequest(command: 2, identifier: 13, token: token.bytes, payload: [])) }
            ),
            (
                "a payload that is not a JSON object", .missingPayload, 14,
                { $0.frame(BinaryPushRequest(command: 2, identifier: 14, token: token.bytes, payload: Array("[1]".utf8))) }
            ),
            (
                "a 2049-byte payload", .invalidPayloadSize, 15,
                {
                    $0.frame(
                        BinaryPushRequest(
                            command: 2, identifier: 15, token: token.bytes, payload: Array(repeating: 0x20, count: 2049)))
                }
            ),
            (
                "priority 1", .protocolError, 16,
                {
                    $0.frame(
                        BinaryPushRequest(
                            command: 2, identifier: 16, token: token.bytes, payload: BinaryStream.payload(1), priority: 1))
                }
            ),
            (
                "an unknown item", .protocolError, 17,
                { stream in stream.write { BinaryPushEncoder.writeFrame(items: [(3, [0, 0, 0, 17]), (9, [1])], into: &$0) } }
            ),
            (
                "a duplicate item", .protocolError, 18,
                { stream in
                    stream.write {
                        BinaryPushEncoder.writeFrame(items: [(3, [0, 0, 0, 18]), (1, token.bytes), (1, token.bytes)], into: &$0)
                    }
                }
            ),
            ("an item overrunning its frame", .protocolError, 0, { $0.raw([2, 0, 0, 0, 4, 1, 0, 32, 0]) }),
            ("an unknown command", .protocolError, 0, { $0.raw([7, 0, 0, 0, 0, 0, 0]) }),
            ("a 4 GiB frame length", .protocolError, 0, { $0.raw([2, 0xFF, 0xFF, 0xFF, 0xFF]) }),
            (
                "command 1 with a short token", .invalidTokenSize, 19,
                { stream in
                    stream.write {
                        BinaryPushEncoder.writeEnhanced(
                            identifier: 19, expiry: 0, token: [1], payload: BinaryStream.payload(1), into: &$0)
                    }
                }
            ),
        ]

    @Test("each bad notification earns its documented status; the good one before it is stored")
    func statuses() async throws {
        try await withEmulator { emulator in
            for (index, fault) in Self.faults.enumerated() {
                let token = DeviceToken(bytes: Array(repeating: UInt8(index + 1), count: 32))!
                var stream = BinaryStream()
                stream.frame(token: token, n: index, identifier: 1)
                fault.write(&stream)
                let response = try await emulator.gateway(stream)
                #expect(response == BinaryErrorResponse(status: fault.status, identifier: fault.identifier), "\(fault.name)")
                #expect(try await self.queuedNumbers(emulator, token) == [index], "\(fault.name)")
            }
        }
    }

    @Test("registered tokens: an unknown token is status 8 and nothing after it is stored")
    func unknownTokenInRegisteredMode() async throws {
        try await withEmulator(configure: { $0.tokenPolicy = .registered }) { emulator in
            let known = try await emulator.offlineToken(topic: "com.example.app")
            var stream = BinaryStream()
            stream.frame(token: known, n: 0, identifier: 1)
            stream.frame(token: Self.token, n: 1, identifier: 2)
            stream.frame(token: known, n: 2, identifier: 3)
            #expect(try await emulator.gateway(stream) == BinaryErrorResponse(status: .invalidToken, identifier: 2))
            #expect(try await self.queuedNumbers(emulator, known) == [0])
        }
    }

    @Test("commands 0, 1 and 2 are stored with their identifier-free fields: expiry, priority, source")
    func everyCommandStored() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all }) { emulator in
            var stream = BinaryStream()
            stream.write { BinaryPushEncoder.writeSimple(token: Self.token.bytes, payload: BinaryStream.payload(0), into: &$0) }
            stream.write {
                BinaryPushEncoder.writeEnhanced(
                    identifier: 1, expiry: 1_999_999_999, token: Self.token.bytes, payload: BinaryStream.payload(1), into: &$0)
            }
            stream.frame(token: Self.token, n: 2, identifier: 2, expiry: 1_999_999_998, priority: 5)
            // Expiry 0 with no device connected: accepted, never stored.
            stream.frame(token: Self.token, n: 3, identifier: 3, expiry: 0)
            // A malformed frame at the end makes the emulator answer once all before it are stored.
            stream.raw([9])
            #expect(try await emulator.gateway(stream) == BinaryErrorResponse(status: .protocolError, identifier: 0))
            let queued = try await emulator.queued(Self.token.hex)
            #expect(queued.count == 3)
            #expect(queued.map { $0["source"] as? String } == ["binary", "binary", "binary"])
            #expect(queued.map { $0["expiration"] as? Int } == [nil, 1_999_999_999, 1_999_999_998])
            #expect(queued.map { $0["priority"] as? Int } == [10, 10, 5])
            #expect(queued.map { $0["pushType"] as? String } == ["alert", "alert", "alert"])
        }
    }

    @Test("a good stream gets no answer at all, and a connected device receives the pushes")
    func silentSuccessAndDelivery() async throws {
        // Long enough that a handshake stalled by a busy machine is not taken for silence: the
        // idle timer counts from the last byte received, and between the client's first and
        // second handshake flights none arrive (2 s was not enough once the whole suite ran at
        // once; 5 s not enough beside a fresh clone's build). The test waits for the close.
        try await withEmulator(configure: { $0.idleTimeout = .seconds(15) }) { emulator in
            let device = try await emulator.device()
            let token = try await device.register(topic: "com.example.app")
            var stream = BinaryStream()
            for n in 0..<3 { stream.frame(token: token, n: n, identifier: UInt32(n)) }
            let exchange = Task { try await emulator.gateway(stream, timeout: .seconds(60)) }
            for n in 0..<3 {
                let notification = try await device.next()
                #expect(notification.source == .binary)
                #expect(notification.payload == BinaryStream.payload(n))
                try await device.acknowledge(notification.uniqueID)
            }
            // Idle: the emulator closes the quiet connection without writing anything.
            #expect(try await exchange.value == nil)
            try await device.close()
        }
    }

    @Test("a push to an unregistered token is taken silently and the token is reported by feedback")
    func unregisteredTokenIsSilent() async throws {
        try await withEmulator { emulator in
            let token = try await emulator.offlineToken(topic: "com.example.app")
            #expect(try await emulator.admin("/api/v1/devices/\(token.hex)/unregister", method: "POST").status == 200)
            var stream = BinaryStream()
            stream.frame(token: token, n: 0, identifier: 1)
            stream.frame(token: Self.token, n: 1, identifier: 2)
            // The first error the emulator answers is the malformed byte at the end.
            stream.raw([9])
            #expect(try await emulator.gateway(stream) == BinaryErrorResponse(status: .protocolError, identifier: 0))
            #expect(try await self.queuedNumbers(emulator, token).isEmpty)
            #expect(try await self.queuedNumbers(emulator) == [1])
            #expect(try await emulator.feedbackTuples().map(\.token) == [token.bytes])
        }
    }

    @Test("graceful shutdown (SIGTERM) answers status 10 with the last processed identifier")
    func shutdown() async throws {
        // A process of its own, stopped as people stop it (issue 37): in process, on a loaded
        // machine, the shutdown shared its event loops with the whole suite.
        try await EmulatorProcess.scoped(["--storage-policy", "all"]) { emulator, ca in
            var stream = BinaryStream()
            for n in 0..<20 { stream.frame(token: Self.token, n: n, identifier: UInt32(100 + n)) }
            let connection = try await RawTLSClient.open(
                host: "127.0.0.1", port: emulator.gatewayPort, caPath: ca, sending: stream.bytes)
            let queued = try await eventually(timeout: .seconds(60)) {
                let items = try await AdminTestClient.request(
                    host: "127.0.0.1", port: emulator.adminPort, path: "/api/v1/devices/\(Self.token.hex)/notifications")
                return (try items.json() as? [Any])?.count == 20
            }
            #expect(queued, "the twenty frames were not all stored")
            let ending = await emulator.kill(SIGTERM)
            #expect(ending.status == 0)
            // The close came with the shutdown: what the gateway wrote before it is all there is.
            var received = ByteBuffer(bytes: try await connection.closed())
            #expect(BinaryErrorResponse.read(from: &received) == BinaryErrorResponse(status: .shutdown, identifier: 119))
            #expect(received.readableBytes == 0)
        }
    }
}
