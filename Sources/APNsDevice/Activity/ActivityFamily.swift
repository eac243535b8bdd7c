/// WidgetKit's `ActivityFamily` (`small`, `medium`), and `compact` for the Dynamic Island's
/// compact leading and trailing views a surface falls back to.
public enum ActivityFamily: String, Codable, Hashable, Sendable, CaseIterable {
    case small, medium, compact
}
