/// Validates a legacy binary notification as APNs did, as a pure function.
///
/// The order of the checks decides which status a notification with several faults gets: token,
/// topic, payload presence and size, priority, then whether the payload is a JSON object.
public struct BinaryPushValidator: Sendable {
    /// The binary interface takes 32-byte tokens only.
    public static let tokenSize = 32
    /// The largest payload the binary interface takes, in bytes (the historic limit was 256).
    public static let maximumPayloadSize = 2048
    /// The priorities item 5 may carry.
    public static let acceptedPriorities: Set<UInt8> = [5, 10]

    public init() {}

    /// Turns `request` into a notification, or says which status byte APNs would answer.
    ///
    /// - Parameters:
    ///   - topic: the provider's topic, from its certificate; `nil` when it presented none.
    ///   - nowMillis: the time of acceptance, milliseconds since the UNIX epoch.
    ///   - generateID: makes the `apns-id` and the unique id (the binary interface has neither).
    public func validate(
        _ request: BinaryPushRequest,
        topic: String?,
        nowMillis: Int64,
        generateID: () -> String = { APNsID.random() }
    ) -> Result<Notification, BinaryRejection> {
        self.validateReading(request, topic: topic, nowMillis: nowMillis, generateID: generateID).map(\.notification)
    }

    /// ``validate(_:topic:nowMillis:generateID:)``, with what the lint reads of the payload's
    /// `aps`, gathered by the same pass that checks the payload.
    public func validateReading(
        _ request: BinaryPushRequest,
        topic: String?,
        nowMillis: Int64,
        environment: APNsEnvironment = .development,
        generateID: () -> String = { APNsID.random() }
    ) -> Result<(notification: Notification, aps: APSFacts?), BinaryRejection> {
        func reject(
            _ status: BinaryStatus, _ detail: String
        ) -> Result<(notification: Notification, aps: APSFacts?), BinaryRejection> {
            .failure(BinaryRejection(status: status, identifier: request.identifier, detail: detail))
        }

        if request.token.isEmpty { return reject(.missingDeviceToken, "no device token") }
        guard request.token.count == Self.tokenSize, let token = DeviceToken(bytes: request.token) else {
            return reject(
                .invalidTokenSize, "the token has \(request.token.count) bytes; the binary interface takes \(Self.tokenSize)")
        }
        if let topic {
            if topic.isEmpty { return reject(.missingTopic, "the certificate names no topic") }
            if topic.utf8.count > PushValidator.maximumTopicLength {
                return reject(
                    .invalidTopicSize, "the topic has \(topic.utf8.count) bytes; the limit is \(PushValidator.maximumTopicLength)"
                )
            }
        }
        if request.payload.isEmpty { return reject(.missingPayload, "no payload") }
        if request.payload.count > Self.maximumPayloadSize {
            return reject(
                .invalidPayloadSize, "the payload has \(request.payload.count) bytes; the limit is \(Self.maximumPayloadSize)")
        }
        var priority = Priority.immediate
        if let value = request.priority {
            guard Self.acceptedPriorities.contains(value), let parsed = Priority(rawValue: value) else {
                return reject(.protocolError, "priority \(value); the binary interface takes 5 or 10")
            }
            priority = parsed
        }
        let scan = JSONObjectValidator.scan(request.payload)
        if let problem = scan.problem {
            // As on HTTP/2 (PayloadEmpty): a payload that is not a JSON object counts as no payload.
            return reject(.missingPayload, "the payload is not a JSON object: \(problem)")
        }

        let notification = Notification(
            apnsID: generateID(),
            uniqueID: generateID(),
            token: token,
            topic: topic,
            pushType: .alert,
            priority: priority,
            expiration: request.expiry.map { Int64($0) },
            collapseID: nil,
            payload: request.payload,
            receivedAt: nowMillis,
            source: .binary,
            environment: environment
        )
        return .success((notification, scan.aps))
    }
}
