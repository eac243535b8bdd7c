/// Where a channel management or broadcast request goes: `/1/apps/<bundle>/channels`,
/// `/1/apps/<bundle>/all-channels` (Apple, "Sending channel management requests to APNs") or
/// `/4/broadcasts/apps/<bundle>` ("Sending broadcast push notification requests to APNs").
public struct BroadcastRoute: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// One channel: create (POST), read (GET), delete (DELETE).
        case channels
        /// Every channel id of the bundle (GET).
        case allChannels = "all-channels"
        /// A broadcast on a channel (POST).
        case publish
    }

    public var kind: Kind
    public var bundleID: String

    public init(kind: Kind, bundleID: String) {
        self.kind = kind
        self.bundleID = bundleID
    }

    static let managementPrefix = "/1/apps/"
    static let publishPrefix = "/4/broadcasts/apps/"

    /// Whether `path` belongs to these APIs: a cheap prefix test that keeps every other request
    /// on the provider API's own path.
    public static func claims(_ path: String?) -> Bool {
        guard let path, path.utf8.first == UInt8(ascii: "/"), path.utf8.count > 3 else { return false }
        return path.hasPrefix(Self.managementPrefix) || path.hasPrefix(Self.publishPrefix)
    }

    /// The route of a path these APIs claim, or `BadPath` for one under their prefixes that is
    /// none of theirs; a bundle id with a push type's suffix is `TopicDisallowed`: channels
    /// belong to the app's bundle id.
    public static func parse(_ path: String) -> Result<BroadcastRoute, Reason> {
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? path
        let route: BroadcastRoute
        if bare.hasPrefix(Self.publishPrefix) {
            let bundle = String(bare.dropFirst(Self.publishPrefix.count))
            route = BroadcastRoute(kind: .publish, bundleID: bundle)
        } else if bare.hasPrefix(Self.managementPrefix) {
            let rest = bare.dropFirst(Self.managementPrefix.count)
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2,
                let kind = parts[1] == "channels" ? Kind.channels : parts[1] == "all-channels" ? Kind.allChannels : nil
            else {
                return .failure(
                    Reason.badPath.explained(
                        "channel management paths are /1/apps/<bundle id>/channels and /1/apps/<bundle id>/all-channels"))
            }
            route = BroadcastRoute(kind: kind, bundleID: String(parts[0]))
        } else {
            return .failure(.badPath)
        }
        guard Self.isBundleID(route.bundleID) else {
            return .failure(
                Reason.badPath.explained("\"\(route.bundleID.prefix(80))\" is not a bundle id (letters, digits, '.' and '-')"))
        }
        if let suffix = PushTopicSuffix.all.first(where: { route.bundleID.hasSuffix($0) }) {
            return .failure(
                Reason.topicDisallowed.explained(
                    "channels belong to an app's bundle id, not to a topic with the suffix \(suffix)"))
        }
        return .success(route)
    }

    /// The methods each route takes.
    public var methods: [String] {
        switch self.kind {
        case .channels: return ["POST", "GET", "DELETE"]
        case .allChannels: return ["GET"]
        case .publish: return ["POST"]
        }
    }

    static func isBundleID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= PushValidator.maximumTopicLength
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "-")
            }
    }
}
