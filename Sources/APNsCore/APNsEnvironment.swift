/// Which APNs a request is for: the sandbox (development) or production. The emulator serves
/// both, as Apple does; a device token belongs to the one its app's build registered with.
public enum APNsEnvironment: String, Sendable, CaseIterable, CustomStringConvertible {
    case development
    case production

    public var description: String { self.rawValue }

    /// The HTTP/2 provider API's host at Apple for this environment.
    public var providerHost: String {
        switch self {
        case .development: "api.sandbox.push.apple.com"
        case .production: "api.push.apple.com"
        }
    }

    /// What a person calls the endpoint: "the sandbox endpoint" or "the production endpoint".
    public var endpointName: String {
        switch self {
        case .development: "the sandbox endpoint"
        case .production: "the production endpoint"
        }
    }

    /// The build whose tokens belong here, as a sentence names it.
    public var buildName: String {
        switch self {
        case .development: "a development build"
        case .production: "a production build (TestFlight, the App Store, ad hoc)"
        }
    }

    /// Apple's hosts for each environment: the provider API, the legacy gateway and feedback.
    static let hosts: [(name: String, environment: APNsEnvironment)] = [
        ("api.sandbox.push.apple.com", .development), ("api.development.push.apple.com", .development),
        ("gateway.sandbox.push.apple.com", .development), ("feedback.sandbox.push.apple.com", .development),
        ("api.push.apple.com", .production), ("gateway.push.apple.com", .production), ("feedback.push.apple.com", .production),
    ]

    /// The environment an Apple host names (`:authority` or SNI, a port after it allowed, any
    /// case); nil for any other host (the emulator's own name, an address).
    public init?(host: String) {
        guard host.utf8.count <= 64 else { return nil }
        var name = Substring(host.lowercased())
        if let colon = name.lastIndex(of: ":"), name[name.index(after: colon)...].allSatisfy(\.isNumber) {
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        guard let found = Self.hosts.first(where: { $0.name == name }) else { return nil }
        self = found.environment
    }

    /// Whether `host` (bytes, a port after it allowed) could be one of Apple's push hosts: the
    /// check a request's `:authority` gets before any string is made of it.
    public static func mayName(host: UnsafeRawBufferPointer) -> Bool {
        var end = host.count
        if let colon = host.lastIndex(of: UInt8(ascii: ":")) { end = colon }
        if end > 0, host[end - 1] == UInt8(ascii: ".") { end -= 1 }
        let suffix = Array("apple.com".utf8)
        guard end >= suffix.count else { return false }
        for (offset, byte) in suffix.enumerated() where host[end - suffix.count + offset] | 0x20 != byte { return false }
        return true
    }
}
