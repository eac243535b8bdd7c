/// Validates a provider request exactly as APNs does, as a pure function.
///
/// The order of the checks decides which reason a request with several faults gets: method,
/// path, token, duplicate headers, `apns-id`, push type, priority, expiration, topic, collapse id,
/// then the payload.
public struct PushValidator: Sendable {
    /// The most body bytes worth buffering: one more than the largest payload any push type allows.
    public static let maximumBufferedBody = 5121
    /// The largest payload any push type allows: a body longer than this is too large whatever
    /// else the request says, so it can be refused before the rest of it arrives.
    public static let largestPayload = PushType.all.map(\.maximumPayloadSize).max() ?? 4096
    /// The longest `apns-collapse-id`, in bytes.
    public static let maximumCollapseIDLength = 64
    /// The longest topic the emulator takes, in bytes (APNs' binary interface used one length byte pair too).
    public static let maximumTopicLength = 255

    public init() {}

    /// Turns `request` into a notification, or says why APNs would refuse it.
    ///
    /// - Parameters:
    ///   - nowMillis: the time of acceptance, milliseconds since the UNIX epoch.
    ///   - generateID: makes the `apns-id` when the provider sent none, and the unique id.
    public func validate(
        _ request: PushRequest,
        nowMillis: Int64,
        source: Interface = .http2,
        generateID: () -> String = { APNsID.random() }
    ) -> Result<Notification, Rejection> {
        self.validateReading(request, nowMillis: nowMillis, source: source, generateID: generateID).map(\.notification)
    }

    /// ``validate(_:nowMillis:source:generateID:)``, with what the lint reads of the payload's
    /// `aps`, gathered by the same pass that checks the payload (``PushLint/warnings(for:aps:)``).
    public func validateReading(
        _ request: PushRequest,
        nowMillis: Int64,
        source: Interface = .http2,
        environment: APNsEnvironment = .development,
        generateID: () -> String = { APNsID.random() }
    ) -> Result<(notification: Notification, aps: APSFacts?), Rejection> {
        let suppliedID = request.apnsID.flatMap { APNsID.isCanonical($0) ? $0 : nil }
        let apnsID = suppliedID ?? generateID()
        func reject(_ reason: Reason, _ detail: String? = nil) -> Result<(notification: Notification, aps: APSFacts?), Rejection>
        {
            .failure(Rejection(reason: reason, apnsID: apnsID, detail: detail))
        }

        guard request.method == "POST" else { return reject(.methodNotAllowed, Self.methodDetail(request.method)) }
        let token: DeviceToken
        switch Self.parsePath(request.path) {
        case .failure(let reason): return reject(reason, reason == .badPath ? Self.pathDetail(request.path) : nil)
        case .success(let parsed): token = parsed
        }
        if request.hasDuplicateHeaders { return reject(.duplicateHeaders) }
        if request.apnsID != nil && suppliedID == nil {
            return reject(.badMessageId, "apns-id must be a UUID in the form 8-4-4-4-12")
        }

        let fields: Fields
        switch Self.fields(of: request) {
        case .failure(let refusal): return reject(refusal.reason, refusal.detail)
        case .success(let checked): fields = checked
        }
        let pushType = fields.pushType

        if request.bodyLength == 0 { return reject(.payloadEmpty, Self.emptyPayloadDetail) }
        if request.bodyLength > pushType.maximumPayloadSize {
            return reject(
                .payloadTooLarge,
                "payload is \(request.bodyLength) bytes; the limit for \(pushType) is \(pushType.maximumPayloadSize)"
            )
        }
        let scan = JSONObjectValidator.scan(request.body)
        if let problem = scan.problem {
            return reject(.payloadEmpty, "payload is not a JSON object: \(problem)")
        }

        let notification = Notification(
            apnsID: apnsID,
            uniqueID: generateID(),
            token: token,
            topic: fields.topic,
            pushType: pushType,
            priority: fields.priority,
            expiration: fields.expiration,
            collapseID: fields.collapseID,
            payload: request.body,
            receivedAt: nowMillis,
            source: source,
            assumed: Self.assumed(in: request),
            environment: environment
        )
        return .success((notification, scan.aps))
    }

    /// The headers `request` left out, whose values are APNs' defaults.
    static func assumed(in request: PushRequest) -> AssumedHeaders {
        var assumed: AssumedHeaders = []
        if request.pushType == nil { assumed.insert(.pushType) }
        if request.priority == nil { assumed.insert(.priority) }
        if request.apnsID == nil { assumed.insert(.apnsID) }
        if request.topic?.isEmpty ?? true { assumed.insert(.topic) }
        return assumed
    }

    /// The header fields after the path and the ids: push type, priority, expiration, topic,
    /// collapse id, in the order APNs checks them.
    struct Fields {
        var pushType: PushType
        var priority: Priority
        var expiration: Int64?
        var topic: String?
        var collapseID: String?
    }

    /// A refusal before the `apns-id` of the answer is known.
    struct Refusal: Error {
        var reason: Reason
        var detail: String?

        init(_ reason: Reason, _ detail: String? = nil) {
            self.reason = reason
            self.detail = detail
        }
    }

    static func fields(of request: PushRequest) -> Result<Fields, Refusal> {
        var pushType = PushType.alert
        if let value = request.pushType {
            guard let parsed = PushType(rawValue: value) else {
                return .failure(Refusal(.invalidPushType, Self.pushTypeDetail(value)))
            }
            pushType = parsed
        }

        var priority = Priority.immediate
        if let value = request.priority {
            guard let number = UInt8(value), let parsed = Priority(rawValue: number) else {
                return .failure(Refusal(.badPriority, Self.priorityDetail(value)))
            }
            priority = parsed
        }
        // A background push at priority 10 is accepted (PushLint warns): Apple's guide calls it an
        // error, but providers' reports show APNs answering 200 and devices not waking the app.

        var expiration: Int64? = nil
        if let value = request.expiration {
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int64(value) else {
                return .failure(Refusal(.badExpirationDate, Self.expirationDetail(value)))
            }
            expiration = seconds
        }

        let topic = request.topic.flatMap { $0.isEmpty ? nil : $0 }
        if let topic {
            guard topic.utf8.count <= Self.maximumTopicLength, topic.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F })
            else { return .failure(Refusal(.badTopic, Self.topicDetail(topic))) }
        } else if request.authorization != nil {
            // Token-based providers must always name the topic.
            return .failure(Refusal(.missingTopic, Self.missingTopicDetail))
        }
        // A VoIP topic takes only VoIP pushes: providers report InvalidPushType for a `.voip`
        // topic sent with no push type (alert).
        if let topic, topic.hasSuffix(".voip"), pushType != .voip {
            return .failure(Refusal(.invalidPushType, "\(topic) is a VoIP topic: apns-push-type must be voip, not \(pushType)"))
        }

        let collapseID = request.collapseID.flatMap { $0.isEmpty ? nil : $0 }
        if let collapseID, collapseID.utf8.count > Self.maximumCollapseIDLength {
            return .failure(Refusal(.badCollapseId, Self.collapseIDDetail(collapseID)))
        }

        return .success(
            Fields(pushType: pushType, priority: priority, expiration: expiration, topic: topic, collapseID: collapseID))
    }

    /// Reads the device token out of `/3/device/<token>`. Works on UTF-8 bytes, not characters:
    /// it runs for every request.
    static func parsePath(_ path: String?) -> Result<DeviceToken, Reason> {
        guard var path else { return .failure(.badPath) }
        return path.withUTF8 { bytes -> Result<DeviceToken, Reason> in
            let prefix: StaticString = "/3/device/"
            let length = prefix.utf8CodeUnitCount
            guard bytes.count >= length,
                bytes.prefix(length).elementsEqual(UnsafeBufferPointer(start: prefix.utf8Start, count: length))
            else {
                return .failure(.badPath)
            }
            var rest = UnsafeBufferPointer(rebasing: bytes[length...])
            if let query = rest.firstIndex(of: UInt8(ascii: "?")) { rest = UnsafeBufferPointer(rebasing: rest[..<query]) }
            // More than one segment is another path, whatever its last one holds (`/3/device/../x/<token>`).
            if rest.contains(UInt8(ascii: "/")) { return .failure(.badPath) }
            if rest.isEmpty { return .failure(.missingDeviceToken) }
            guard let token = DeviceToken(hexDigits: rest) else {
                let why = DeviceToken.refusal(hexDigits: rest)
                return .failure(why.map { Reason.badDeviceToken.explained($0) } ?? .badDeviceToken)
            }
            return .success(token)
        }
    }
}
