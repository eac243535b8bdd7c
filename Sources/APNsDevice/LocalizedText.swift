import APNsCore

/// A text given by a localisation key.
public struct LocalizedText: Hashable, Sendable, Codable {
    /// `title`, `subtitle` or `body`.
    public var field: String
    public var key: String
    /// The language it was looked up in (the phone's at presentation time).
    public var language: String
    /// False when the app has no such key: the key itself is shown.
    public var found: Bool

    public init(field: String, key: String, language: String, found: Bool) {
        self.field = field
        self.key = key
        self.language = language
        self.found = found
    }
}
