import APNsCore
import APNsStore
import APNsTestSupport
import Logging
import Testing

@Suite("Store: tokens, acknowledgements, replacement, caps")
struct DeviceStoreTests {
    static let token = DeviceToken(hex: String(repeating: "a7", count: 32))!
    static let other = DeviceToken(hex: String(repeating: "b8", count: 32))!

    func withStore(
        clock: ManualClock = ManualClock(),
        _ change: (inout StoreConfiguration) -> Void = { _ in },
        _ body: (NotificationStore) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        var configuration = StoreConfiguration(directory: directory.appending("data"), clock: clock.function)
        configuration.sweepInterval = .seconds(3600)
        change(&configuration)
        let store = try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
        try await body(store)
        store.close()
        try directory.remove()
    }

    func push(
        _ token: DeviceToken = Self.token, topic: String? = "com.example.app", collapse: String? = nil, n: Int = 0
    ) -> Notification {
        .test(token: token.hex, payload: #"{"n":\#(n)}"#, collapseID: collapse, topic: topic)
    }

    /// The store's count for a token must always match its queue.
    func expectConsistent(_ store: NotificationStore, _ token: DeviceToken = Self.token) throws {
        #expect(try store.queuedCount(for: token) == store.queued(for: token).count)
    }

    @Test("register issues a token once; a second registration of the same token is refused")
    func register() async throws {
        let clock = ManualClock()
        try await self.withStore(clock: clock) { store in
            #expect(
                try await store.submit([.register(token: Self.token, topic: "com.example.app", deviceID: "phone")]) == [
                    .registered
                ])
            #expect(try await store.submit([.register(token: Self.token, topic: "x", deviceID: nil)]) == [.tokenTaken])
            let record = try #require(try store.token(Self.token))
            #expect(record.topic == "com.example.app")
            #expect(record.deviceID == "phone")
            #expect(record.registeredAt == clock.now)
            #expect(record.unregisteredAt == nil)
            #expect(try store.tokens().map(\.token) == [Self.token])
        }
    }

    @Test("an acknowledged notification leaves its queue and is logged as delivered; a second ack finds nothing")
    func acknowledge() async throws {
        try await self.withStore { store in
            let first = self.push(n: 0)
            let second = self.push(n: 1)
            _ = try await store.submit([.accept(first), .accept(second)])
            #expect(try await store.submit([.acknowledge(uniqueID: first.uniqueID)]) == [.acknowledged(true)])
            #expect(try await store.submit([.acknowledge(uniqueID: first.uniqueID)]) == [.acknowledged(false)])
            #expect(try store.queued(for: Self.token).map(\.notification) == [second])
            #expect(try store.logged().first?.status == .delivered)
            #expect(try store.logged().first?.notification == first)
            try self.expectConsistent(store)
        }
    }

    @Test("unregister: queue dropped, feedback recorded, later pushes refused with the unregistration time")
    func unregister() async throws {
        let clock = ManualClock()
        try await self.withStore(clock: clock) { store in
            _ = try await store.submit([
                .register(token: Self.token, topic: "com.example.app", deviceID: nil), .accept(self.push()),
            ])
            clock.advance(seconds: 5)
            let outcome = try await store.submit([.unregister(token: Self.token)])
            #expect(outcome == [.unregistered(timestamp: clock.now)])
            #expect(try store.queued(for: Self.token).isEmpty)
            #expect(try store.logged().first?.status == .unregistered)
            #expect(try store.feedback() == [FeedbackEntry(token: Self.token, topic: "com.example.app", at: clock.now)])
            let unregisteredAt = clock.now
            clock.advance(seconds: 5)
            #expect(try await store.submit([.accept(self.push())]) == [.tokenUnregistered(timestamp: unregisteredAt)])
            #expect(try await store.submit([.unregister(token: Self.token)]) == [.unregistered(timestamp: unregisteredAt)])
            try self.expectConsistent(store)
        }
    }

    @Test("an open-mode token nobody registered can be unregistered; its queue's topic is remembered")
    func unregisterOpenToken() async throws {
        try await self.withStore { store in
            _ = try await store.submit([.accept(self.push(topic: "com.example.other"))])
            _ = try await store.submit([.unregister(token: Self.token)])
            #expect(try store.token(Self.token)?.topic == "com.example.other")
            #expect(try store.feedback().map(\.topic) == ["com.example.other"])
        }
    }

    @Test("registered mode refuses unknown tokens; a token is refused for another topic in any mode")
    func tokenPolicy() async throws {
        try await self.withStore({ $0.tokenPolicy = .registered }) { store in
            #expect(try await store.submit([.accept(self.push())]) == [.unknownToken])
            _ = try await store.submit([.register(token: Self.token, topic: "com.example.app", deviceID: nil)])
            guard case .queued = try await store.submit([.accept(self.push())]).first else {
                Issue.record("a registered token must be accepted")
                return
            }
            #expect(try await store.submit([.accept(self.push(topic: "com.example.other"))]) == [.tokenNotForTopic])
        }
        try await self.withStore { store in
            guard case .queued = try await store.submit([.accept(self.push())]).first else {
                Issue.record("open mode must accept any token")
                return
            }
        }
    }

    @Test("a notification with the same topic and collapse id replaces the queued one")
    func collapse() async throws {
        try await self.withStore { store in
            let old = self.push(collapse: "score", n: 1)
            let otherTopic = self.push(topic: "com.example.other", collapse: "score", n: 2)
            let unrelated = self.push(collapse: nil, n: 3)
            let new = self.push(collapse: "score", n: 4)
            _ = try await store.submit([.accept(old), .accept(otherTopic), .accept(unrelated), .accept(new)])
            #expect(try store.queued(for: Self.token).map(\.notification) == [otherTopic, unrelated, new])
            let log = try store.logged()
            #expect(log.map(\.status) == [.replaced])
            #expect(log.first?.notification == old)
            try self.expectConsistent(store)
        }
    }

    @Test("the latest policy keeps only the most recent notification per topic")
    func latestPolicy() async throws {
        try await self.withStore({ $0.storagePolicy = .latest }) { store in
            let pushes = (0..<5).map { self.push(n: $0) }
            let otherTopic = self.push(topic: "com.example.other", n: 9)
            _ = try await store.submit(pushes.map { .accept($0) } + [.accept(otherTopic)])
            #expect(try store.queued(for: Self.token).map(\.notification) == [pushes[4], otherTopic])
            #expect(try store.logged().filter { $0.status == .replaced }.count == 4)
            try self.expectConsistent(store)
        }
        // "APNs stores only one notification per bundle ID" while the device is offline (Apple,
        // "Sending notification requests to APNs"); a connected device's queue holds what is on
        // its way to it, and nothing there is replaced but by a collapse id.
        try await self.withStore({ $0.storagePolicy = .latest }) { store in
            let pushes = (0..<3).map { self.push(n: $0) }
            _ = try await store.submit(pushes.map { .acceptForConnectedDevice($0) })
            #expect(try store.queued(for: Self.token).map(\.notification) == pushes)
            let offline = self.push(n: 7)
            _ = try await store.submit([.accept(offline)])
            #expect(try store.queued(for: Self.token).map(\.notification) == [offline])
            let replaced = try store.logged().filter { $0.status == .replaced }.map(\.notification.uniqueID)
            #expect(replaced.sorted() == pushes.map(\.uniqueID).sorted())
            try self.expectConsistent(store)
        }
    }

    @Test("the all policy caps each queue, dropping the oldest")
    func cap() async throws {
        try await self.withStore({ $0.maximumQueuedPerDevice = 3 }) { store in
            let pushes = (0..<5).map { self.push(n: $0) }
            _ = try await store.submit(pushes.map { .accept($0) } + [.accept(self.push(Self.other, n: 7))])
            #expect(try store.queued(for: Self.token).map(\.notification) == Array(pushes.suffix(3)))
            #expect(try store.logged().filter { $0.status == .dropped }.map(\.notification) == [pushes[1], pushes[0]])
            #expect(try store.queuedCount(for: Self.other) == 1)
            try self.expectConsistent(store)
        }
    }

    @Test("a replacement counts as one change of the queue's length: the cap drops nothing it need not")
    func replacementKeepsTheCount() async throws {
        try await self.withStore({ $0.maximumQueuedPerDevice = 3 }) { store in
            let kept = self.push(n: 0)
            let replaced = self.push(collapse: "score", n: 1)
            let newer = self.push(collapse: "score", n: 2)
            let last = self.push(n: 3)
            // Submitted one by one: each is its own commit, the length carried between them.
            for push in [kept, replaced, newer, last] { _ = try await store.submit([.accept(push)]) }
            #expect(try store.queued(for: Self.token).map(\.notification) == [kept, newer, last])
            #expect(try store.logged().map(\.status) == [.replaced])
            _ = try await store.submit([.accept(self.push(n: 4))])
            #expect(try store.logged().filter { $0.status == .dropped }.map(\.notification) == [kept])
            try self.expectConsistent(store)
        }
        // Under `latest` no topic is a topic too: the second push without one replaces the first.
        try await self.withStore({ $0.storagePolicy = .latest }) { store in
            let first = self.push(topic: nil, n: 0)
            let second = self.push(topic: nil, n: 1)
            for push in [first, second] { _ = try await store.submit([.accept(push)]) }
            #expect(try store.queued(for: Self.token).map(\.notification) == [second])
            try self.expectConsistent(store)
        }
    }

    @Test("an unregistered token that registers again is valid again and leaves feedback")
    func reRegisterClearsFeedback() async throws {
        try await self.withStore { store in
            _ = try await store.submit([.register(token: Self.other, topic: "t", deviceID: nil), .unregister(token: Self.other)])
            #expect(try store.feedback().map(\.token) == [Self.other])
            #expect(try store.tokenRefusal(for: Self.other, topic: nil, environment: .development) != nil)
            #expect(try await store.submit([.register(token: Self.other, topic: "t", deviceID: nil)]) == [.registered])
            #expect(try store.feedback().isEmpty)
            #expect(try store.token(Self.other)?.unregisteredAt == nil)
            #expect(try store.tokenRefusal(for: Self.other, topic: "t", environment: .development) == nil)
            #expect(
                try await store.submit([.accept(self.push(Self.other, topic: "t"))]).first.map {
                    if case .queued = $0 { true } else { false }
                } == true)
            // A valid token stays taken.
            #expect(try await store.submit([.register(token: Self.other, topic: "t", deviceID: nil)]) == [.tokenTaken])
        }
    }

    @Test("clearing feedback removes what was read, but not a token unregistered again since")
    func clearFeedback() async throws {
        let clock = ManualClock()
        try await self.withStore(clock: clock) { store in
            _ = try await store.submit([.unregister(token: Self.token), .unregister(token: Self.other)])
            let read = try store.feedback()
            #expect(read.count == 2)
            // Self.other registers again and is removed once more before the provider's read is cleared.
            clock.advance(seconds: 5)
            _ = try await store.submit([.register(token: Self.other, topic: "t", deviceID: nil), .unregister(token: Self.other)])
            #expect(try await store.submit([.clearFeedback(read)]) == [.feedbackCleared(count: 1)])
            let left = try store.feedback()
            #expect(left.map(\.token) == [Self.other])
            #expect(left.first?.at == clock.now)
            #expect(try await store.submit([.clearFeedback(read)]) == [.feedbackCleared(count: 0)])
        }
    }

    @Test("record logs a notification without queueing it")
    func record() async throws {
        try await self.withStore { store in
            let notification = self.push()
            let outcome = try await store.submit([.record(notification, .delivered)])
            #expect(outcome == [.recorded])
            #expect(try store.queued(for: Self.token).isEmpty)
            #expect(try store.logged().map(\.status) == [.delivered])
        }
    }

    /// Apple, "Handling notification responses from APNs": BadDeviceToken, "verify … that the
    /// token matches the environment".
    @Test("a token belongs to the environment it was registered in: a push sent to the other is refused, whatever the policy")
    func environment() async throws {
        try await self.withStore { store in
            _ = try await store.submit([.register(token: Self.other, topic: "t", deviceID: nil, environment: .production)])
            #expect(try store.token(Self.other)?.environment == .production)
            var push = self.push(Self.other, topic: "t")
            #expect(try await store.submit([.accept(push)]) == [.tokenInOtherEnvironment(.production)])
            push.environment = .production
            #expect(try await store.submit([.accept(push)]).first.map { if case .queued = $0 { true } else { false } } == true)
        }
        // Registered without one: the configuration's (serve --environment).
        try await self.withStore({ $0.defaultEnvironment = .production }) { store in
            _ = try await store.submit([.register(token: Self.other, topic: "t", deviceID: nil)])
            #expect(try store.token(Self.other)?.environment == .production)
        }
    }
}
