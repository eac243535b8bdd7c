import APNsCore

/// A notification's content as a service extension sees it (`UNNotificationContent`): what it is
/// handed, and what it hands back to be shown. One JSON object both ways: `title`, `subtitle`,
/// `body`, `userInfo` (the whole payload, `aps` included, as iOS gives it), `categoryIdentifier`,
/// `threadIdentifier`; a reply may add `attachments` and `communication` (``Communication``). A member a reply leaves
/// out keeps the original's value, as `request.content.mutableCopy()` does.
public struct ExtensionContent: Hashable, Sendable, Codable {
    public var title = ""
    public var subtitle = ""
    public var body = ""
    public var userInfo = JSONValue.object([:])
    public var categoryIdentifier = ""
    public var threadIdentifier = ""
    /// Files shown with the alert, as `UNNotificationAttachment` takes them (checked by ``ExtensionAttachment/check(size:)``).
    public var attachments: [ExtensionAttachment] = []
    /// The `INSendMessageIntent` the extension donated and updated the content from, if any.
    public var communication: Communication?

    public init() {}

    /// The content iOS hands the extension for `payload` (texts as localised for the app).
    init(payload: [UInt8], aps: JSONValue, texts: (String?, String?, String?)) {
        (self.title, self.subtitle, self.body) = (texts.0 ?? "", texts.1 ?? "", texts.2 ?? "")
        self.userInfo = JSONValue.parse(payload) ?? .object([:])
        self.categoryIdentifier = aps["category"]?.string ?? ""
        self.threadIdentifier = aps["thread-id"]?.string ?? ""
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, subtitle, body, userInfo, categoryIdentifier, threadIdentifier, attachments, communication
    }

    /// A member left out keeps its default (the content handed to an extension has no attachments).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String { try container.decodeIfPresent(String.self, forKey: key) ?? "" }
        (self.title, self.subtitle, self.body) = (try text(.title), try text(.subtitle), try text(.body))
        self.userInfo = try container.decodeIfPresent(JSONValue.self, forKey: .userInfo) ?? .object([:])
        (self.categoryIdentifier, self.threadIdentifier) = (try text(.categoryIdentifier), try text(.threadIdentifier))
        self.attachments = try container.decodeIfPresent([ExtensionAttachment].self, forKey: .attachments) ?? []
        self.communication = try container.decodeIfPresent(Communication.self, forKey: .communication)
    }

    /// The content as the extension gets it: one line of JSON.
    public var json: [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("title") { $0.string(self.title) }
            members.member("subtitle") { $0.string(self.subtitle) }
            members.member("body") { $0.string(self.body) }
            members.member("userInfo") { $0.value(self.userInfo) }
            members.member("categoryIdentifier") { $0.string(self.categoryIdentifier) }
            members.member("threadIdentifier") { $0.string(self.threadIdentifier) }
        }
        return writer.bytes
    }

    /// What an extension's reply makes of this content; the reason it is not a reply when it is
    /// not one (a member of the wrong type, one the content has not, not an object at all).
    public func replied(_ bytes: [UInt8]) -> Result<ExtensionContent, ExtensionReplyError> {
        guard case .object(let members)? = JSONValue.parse(bytes) else {
            let start = String(decoding: bytes.prefix(80), as: UTF8.self)
            return .failure(ExtensionReplyError("the reply is not a JSON object: \(start.isEmpty ? "nothing" : start)"))
        }
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            let names = CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(ExtensionReplyError("the reply has \(unknown), which content has not (it has \(names))"))
        }
        var content = self
        for (key, path) in [("title", \Self.title), ("subtitle", \.subtitle), ("body", \.body)]
            + [("categoryIdentifier", \Self.categoryIdentifier), ("threadIdentifier", \.threadIdentifier)]
        {
            guard let value = members[key] else { continue }
            guard let text = value.string else { return .failure(ExtensionReplyError("\(key) must be a string")) }
            content[keyPath: path] = text
        }
        if let userInfo = members["userInfo"] {
            guard case .object = userInfo else { return .failure(ExtensionReplyError("userInfo must be an object")) }
            content.userInfo = userInfo
        }
        if let communication = members["communication"] {
            switch Communication.parse(communication) {
            case .success(let parsed): content.communication = parsed
            case .failure(let error): return .failure(error)
            }
        }
        if let attachments = members["attachments"] {
            switch ExtensionAttachment.list(attachments) {
            case .success(let list): content.attachments = list
            case .failure(let error): return .failure(error)
            }
        }
        return .success(content)
    }

    /// The payload the phone presents for this content: the original's, its alert, category,
    /// thread and custom keys replaced by what the extension gave.
    public func payload(replacing original: [UInt8]) -> [UInt8] {
        var aps =
            JSONValue.member("aps", ofObjectIn: original).flatMap { value -> [String: JSONValue]? in
                guard case .object(let members) = value else { return nil }
                return members
            } ?? [:]
        var alert: [String: JSONValue] = [:]
        for (key, text) in [("title", self.title), ("subtitle", self.subtitle), ("body", self.body)] where !text.isEmpty {
            alert[key] = .string(text)
        }
        aps["alert"] = .object(alert)
        aps["category"] = self.categoryIdentifier.isEmpty ? nil : .string(self.categoryIdentifier)
        aps["thread-id"] = self.threadIdentifier.isEmpty ? nil : .string(self.threadIdentifier)
        var payload: [String: JSONValue] = [:]
        if case .object(let members) = self.userInfo { payload = members }
        payload["aps"] = .object(aps)
        return JSONValue.object(payload).compact
    }
}
