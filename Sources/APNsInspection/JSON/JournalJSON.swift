import APNsCore

/// The admin API's JSON of journal entries and fault rules.
public enum JournalJSON {
    /// One journal entry: the notification as sent, its status and when it got there, where it came
    /// from, and for a rejected one the answer the provider got.
    /// `detailed` adds what a list leaves out: a broadcast's outcome per activity.
    public static func write(_ entry: JournalEntry, detailed: Bool = false, into writer: inout JSONWriter) {
        writer.object { members in
            members.member("id") { $0.string(entry.uniqueID) }
            switch entry.push {
            case .accepted(let notification):
                NotificationJSON.writeFields(of: notification, into: &members)
            case .rejected(let rejected):
                Self.writeFields(of: rejected, into: &members)
            case .broadcast(let record):
                BroadcastJSON.writeFields(of: record, detailed: detailed, into: &members)
            }
            members.member("source") { $0.string(entry.source.rawValue) }
            members.member("status") { $0.string(entry.status.rawValue) }
            members.member("receivedAt") { $0.string(Timestamp.rfc3339(millis: entry.receivedAt)) }
            members.member("statusAt") { writer in
                if let at = entry.statusAt { writer.string(Timestamp.rfc3339(millis: at)) } else { writer.raw("null") }
            }
            if case .rejected(let rejected) = entry.push {
                members.member("reason") { $0.optionalString(rejected.reason) }
                members.member("httpStatus") { writer in
                    if let status = rejected.httpStatus { writer.number(status) } else { writer.raw("null") }
                }
                members.member("statusByte") { writer in
                    if let byte = rejected.statusByte { writer.number(byte) } else { writer.raw("null") }
                }
                members.member("detail") { $0.optionalString(rejected.detail) }
                members.member("port") { writer in if let port = rejected.port { writer.number(port) } else { writer.raw("null") }
                }
                members.member("environment") { $0.optionalString(rejected.environment?.rawValue) }
            }
            members.member("warnings") { writer in
                switch entry.push {
                case .accepted(let notification): writer.array(PushLint.warnings(for: notification)) { $0.string($1.description) }
                case .broadcast(let record): writer.array(record.warnings) { $0.string($1) }
                case .rejected: writer.raw("[]")
                }
            }
            let outcome = PhoneOutcome(of: entry)
            members.member("phoneOutcome") { writer in
                writer.object { fields in
                    fields.member("state") { $0.string(outcome.state.rawValue) }
                    fields.member("text") { $0.string(outcome.text) }
                }
            }
            members.member("presentation") { $0.raw(PhoneJSON.encoded(entry.presentation)) }
            members.member("response") { $0.raw(PhoneJSON.encoded(entry.response)) }
            if let forward = entry.simulator { members.member("simulator") { Self.write(forward, into: &$0) } }
            if let activity = entry.activity { members.member("activity") { activity.write(into: &$0) } }
            members.member("fault") { writer in
                guard let fault = entry.fault else { return writer.raw("null") }
                writer.object { fields in
                    fields.member("id") { $0.string(fault.ruleID) }
                    fields.member("action") { $0.string(fault.action) }
                }
            }
        }
    }

    /// A rejected request's fields as they came (what did not parse stays as sent).
    private static func writeFields(of rejected: RejectedPush, into members: inout JSONWriter.Members) {
        members.member("apnsId") { $0.optionalString(rejected.apnsID) }
        members.member("uniqueId") { $0.raw("null") }
        // A request to another path has no token: its path says where it went.
        members.member("token") {
            $0.optionalString(rejected.token.isEmpty || rejected.token.hasPrefix("/") ? nil : rejected.token)
        }
        if let path = rejected.path { members.member("path") { $0.string(path) } }
        members.member("topic") { $0.optionalString(rejected.topic) }
        members.member("pushType") { $0.optionalString(rejected.pushType) }
        // Numbers as numbers; what did not read as one stays, as sent, under `unparsed`.
        let priority = rejected.priority.flatMap { Int($0) }
        let expiration = rejected.expiration.flatMap { Int64($0) }
        members.member("priority") { writer in if let priority { writer.number(priority) } else { writer.raw("null") } }
        members.member("expiration") { writer in if let expiration { writer.number(expiration) } else { writer.raw("null") } }
        let unparsed = [
            ("priority", priority == nil ? rejected.priority : nil),
            ("expiration", expiration == nil ? rejected.expiration : nil),
        ]
        .compactMap { name, value in value.map { (name, $0) } }
        if !unparsed.isEmpty {
            members.member("unparsed") { writer in
                writer.object { fields in for (name, value) in unparsed { fields.member(name) { $0.string(value) } } }
            }
        }
        members.member("collapseId") { $0.optionalString(rejected.collapseID) }
        members.member("payload") { $0.raw("null") }
        members.member("body") { $0.string(String(decoding: rejected.body, as: UTF8.self)) }
    }

    private static func write(_ forward: SimulatorForward, into writer: inout JSONWriter) {
        writer.object { fields in
            fields.member("device") { $0.string(forward.device) }
            fields.member("status") { $0.string(forward.status) }
            fields.member("exitCode") { writer in
                if let code = forward.exitCode { writer.number(code) } else { writer.raw("null") }
            }
            fields.member("message") { $0.string(forward.message) }
        }
    }

    public static func entry(_ entry: JournalEntry) -> [UInt8] {
        var writer = JSONWriter()
        self.write(entry, detailed: true, into: &writer)
        return writer.bytes
    }

    /// One page of the journal: `{"total", "items", "next"}` (`next` the cursor of the next page).
    public static func page(total: Int, items: [JournalEntry], next: UInt64?) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("total") { $0.number(total) }
            members.member("items") { $0.array(items) { writer, entry in JournalJSON.write(entry, into: &writer) } }
            members.member("next") { $0.optionalString(next.map { String($0) }) }
        }
        return writer.bytes
    }

    /// One fault rule's JSON text.
    public static func rule(_ rule: FaultRule) -> [UInt8] {
        var writer = JSONWriter()
        self.write(rule, into: &writer)
        return writer.bytes
    }

    /// A journal event as a Server-Sent Event: `event: <kind>` and `data: <entry JSON>` (JSON has
    /// no raw newlines, so one data line).
    public static func serverSentEvent(_ event: Journal.Event) -> String {
        let data = event.activity?.json ?? event.entry.map { String(decoding: self.entry($0), as: UTF8.self) } ?? "{}"
        return "event: \(event.kind)\ndata: \(data)\n\n"
    }

    /// One fault rule as the API shows it (the same shape it is posted in, plus its id and counts).
    public static func write(_ rule: FaultRule, into writer: inout JSONWriter) {
        writer.object { members in
            members.member("id") { $0.string(rule.id) }
            members.member("match") { writer in
                writer.object { match in
                    if let token = rule.match.token { match.member("token") { $0.string(token) } }
                    if let topic = rule.match.topic { match.member("topic") { $0.string(topic) } }
                    if let pushType = rule.match.pushType { match.member("pushType") { $0.string(pushType) } }
                    if let interface = rule.match.interface { match.member("interface") { $0.string(interface.rawValue) } }
                    if let channelID = rule.match.channelID { match.member("channelId") { $0.string(channelID) } }
                }
            }
            members.member("action") { writer in
                writer.object { action in
                    action.member("type") { $0.string(rule.action.name) }
                    switch rule.action {
                    case .respond(let reason, let status, let statusByte):
                        if let reason { action.member("reason") { $0.string(reason) } }
                        if let reason {
                            let status = Reason.injected(wire: reason, status: status).status
                            action.member("status") { $0.number(status) }
                        }
                        if let statusByte { action.member("statusByte") { $0.number(statusByte) } }
                    case .delay(let delay):
                        action.member("ms") {
                            $0.number(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000)
                        }
                    case .goAway(let reason):
                        action.member("reason") { $0.string(reason) }
                    case .reset:
                        break
                    }
                }
            }
            members.member("times") { writer in
                if let remaining = rule.remaining { writer.number(remaining) } else { writer.raw("null") }
            }
            members.member("probability") { $0.raw(String(rule.probability)) }
            members.member("hits") { $0.number(rule.hits) }
        }
    }
}
