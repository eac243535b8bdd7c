import APNsCore

/// A file a service extension attaches to the alert (`UNNotificationAttachment`): an
/// `identifier` and a `url` (a `file://` URL or a path on the emulator's machine). iOS checks it
/// once the extension is done: a type it supports, within that type's size, else it is left out.
/// Source: Apple, UNNotificationAttachment, "Supported file types": audio (AIFF, WAV, MP3, MPEG-4
/// audio) up to 5 MB, images (JPEG, GIF, PNG) up to 10 MB, movies (MPEG, MPEG-2, MPEG-4, AVI)
/// up to 50 MB.
public struct ExtensionAttachment: Hashable, Sendable, Codable {
    public var identifier: String
    public var url: String
    /// What the check found: `audio`, `image` or `movie`; nil for a type iOS does not take.
    public var kind: String?
    /// The file's size in bytes, when it could be read.
    public var bytes: Int?
    /// Whether it is shown with the alert; when not, `reason` says why.
    public var accepted = false
    public var reason: String?

    public init(identifier: String, url: String) {
        self.identifier = identifier
        self.url = url
    }

    /// The largest file of each kind, in bytes.
    public static let limits = ["audio": 5 << 20, "image": 10 << 20, "movie": 50 << 20]

    /// The kind of file a name ends in, as iOS infers the type from the file's extension.
    public static func kind(ofFile name: String) -> String? {
        let suffix = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch suffix {
        case "aif", "aiff", "wav", "mp3", "m4a": return "audio"
        case "jpg", "jpeg", "gif", "png": return "image"
        case "mpg", "mpeg", "mp2", "mp4", "m4v", "avi": return "movie"
        default: return nil
        }
    }

    /// The path the URL names on the emulator's machine.
    public var path: String {
        self.url.hasPrefix("file://") ? String(self.url.dropFirst("file://".count)) : self.url
    }

    /// The check iOS makes, given the file's size (nil: it could not be read).
    public mutating func check(size: Int?) {
        self.kind = Self.kind(ofFile: self.path)
        self.bytes = size
        guard let size else {
            self.reason = "\(self.url) is not a file the phone can read"
            return
        }
        guard let kind, let limit = Self.limits[kind] else {
            self.reason =
                "\(self.url) is not a type iOS attaches (audio: aiff, wav, mp3, m4a; image: jpeg, gif, png; movie: mpeg, mp4, avi)"
            return
        }
        guard size <= limit else {
            self.reason =
                "\(self.url) is \(size) bytes; a\(kind == "image" ? "n" : "") \(kind) attachment may be \(limit >> 20) MB at most"
            return
        }
        self.accepted = true
    }

    /// The attachments of a reply: an array of `{"identifier", "url"}`.
    static func list(_ value: JSONValue) -> Result<[ExtensionAttachment], ExtensionReplyError> {
        guard case .array(let items) = value else { return .failure(ExtensionReplyError("attachments must be an array")) }
        var list: [ExtensionAttachment] = []
        for (index, item) in items.enumerated() {
            guard let url = item["url"]?.string, !url.isEmpty else {
                return .failure(ExtensionReplyError("attachments[\(index)] needs a url (a file:// URL or a path)"))
            }
            list.append(ExtensionAttachment(identifier: item["identifier"]?.string ?? "", url: url))
        }
        return .success(list)
    }
}
