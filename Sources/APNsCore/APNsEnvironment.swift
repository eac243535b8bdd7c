/// Which APNs the emulator plays: the sandbox (development) or production.
public enum APNsEnvironment: String, Sendable, CaseIterable, CustomStringConvertible {
    case development
    case production

    public var description: String { self.rawValue }
}
