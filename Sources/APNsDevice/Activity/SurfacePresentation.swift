/// How one activity shows on one paired surface.
public struct SurfacePresentation: Hashable, Sendable {
    public var surface: ActivitySurface
    public var family: ActivityFamily
    /// Whether it shows there now; if not, why not (`reason`).
    public var shown: Bool
    public var reason: String?
}
