import APNsCore

/// The alert of a Live Activity push: what lights the screen. Title and body may be text or a
/// localized form (`loc-key`), which is shown by its key when the app has no string for it.
public struct ActivityAlert: Codable, Hashable, Sendable {
    public var title: String?
    public var body: String?
    public var sound: String?

    public init(title: String?, body: String?, sound: String?) {
        self.title = title
        self.body = body
        self.sound = sound
    }

    init?(_ value: JSONValue?) {
        guard let value else { return nil }
        if let text = value.string {
            self.init(title: nil, body: text, sound: nil)
            return
        }
        func text(_ field: JSONValue?) -> String? { field?.string ?? field?["loc-key"]?.string }
        self.init(
            title: text(value["title"]), body: text(value["body"]),
            sound: value["sound"]?.string ?? value["sound"]?["name"]?.string)
    }

    /// Both a title and a body, non-empty: what a push-to-start must carry.
    public var isComplete: Bool { !(self.title ?? "").isEmpty && !(self.body ?? "").isEmpty }
}
