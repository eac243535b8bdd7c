/// Where a Live Activity push went: the app's push-to-start token, or one activity's update token.
public enum ActivityTarget: Hashable, Sendable {
    case pushToStart
    case activity(String)
}
