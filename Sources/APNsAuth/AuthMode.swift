/// How providers must prove who they are (`--auth`).
public enum AuthMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Any provider, any or no `authorization` header, any topic.
    case none
    /// Every provider authenticates by client certificate or provider token, on every interface.
    case strict

    public var description: String { self.rawValue }
}
