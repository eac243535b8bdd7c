/// A token issued or withdrawn: the app's push-to-start token or an activity's update token.
/// `replaced` is the token it supersedes, which stops being valid.
public struct ActivityTokenChange: Hashable, Sendable {
    public var kind: Kind
    public var activityID: String?
    public var token: String
    public var replaced: String?

    public enum Kind: String, Hashable, Sendable {
        case pushToStart, update
    }

    public init(_ kind: Kind, activityID: String?, token: String, replaced: String? = nil) {
        self.kind = kind
        self.activityID = activityID
        self.token = token
        self.replaced = replaced
    }
}
