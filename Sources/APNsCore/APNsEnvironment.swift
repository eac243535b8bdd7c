/// Which APNs a request is for: the sandbox (development) or production. The emulator serves
/// both, as Apple does; a device token belongs to the one its app's build registered with.
public enum APNsEnvironment: String, Sendable, CaseIterable, CustomStringConvertible, Codable {
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

    /// Apple's channel management host for this environment.
    public var channelHost: String {
        switch self {
        case .development: "api-manage-broadcast.sandbox.push.apple.com"
        case .production: "api-manage-broadcast.push.apple.com"
        }
    }

    /// What a person calls the environment in a sentence: "the sandbox" or "production".
    public var environmentName: String {
        switch self {
        case .development: "the sandbox"
        case .production: "production"
        }
    }

    /// The environment a document or a query names: `development` (or `sandbox`, Apple's word for
    /// its endpoint) or `production`; nil for any other word.
    public init?(name: String) {
        switch name {
        case "development", "sandbox": self = .development
        case "production": self = .production
        default: return nil
        }
    }

    /// Apple's legacy binary gateway host for this environment.
    public var gatewayHost: String {
        switch self {
        case .development: "gateway.sandbox.push.apple.com"
        case .production: "gateway.push.apple.com"
        }
    }

    /// How the explanation of a BadDeviceToken for a token of the other environment begins ("this
    /// token was issued to a development build; ...").
    public static let otherEnvironmentLead = "this token was issued to "

    /// Whether `explanation` (a refusal's detail) says the token belongs to the other
    /// environment's builds: what the report card and the metrics count.
    public static func isOtherEnvironment(explanation: String?) -> Bool {
        explanation?.hasPrefix(Self.otherEnvironmentLead) == true
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

    /// Apple's hosts for each environment, as bytes: the provider API, the legacy gateway and
    /// feedback, channel management.
    static let hosts: [(name: [UInt8], environment: APNsEnvironment)] = {
        let names: [(String, APNsEnvironment)] = [
            ("api.sandbox.push.apple.com", .development), ("api.development.push.apple.com", .development),
            ("gateway.sandbox.push.apple.com", .development), ("feedback.sandbox.push.apple.com", .development),
            ("api.push.apple.com", .production), ("gateway.push.apple.com", .production),
            ("feedback.push.apple.com", .production), ("api-manage-broadcast.sandbox.push.apple.com", .development),
            ("api-manage-broadcast.push.apple.com", .production),
        ]
        return names.map { (Array($0.0.utf8), $0.1) }
    }()

    /// The environment an Apple host names (a request's `:authority`, as bytes: a port or a
    /// trailing dot allowed, any case); nil for any other host (the emulator's own name, an
    /// address). Compared in place, with no string made: every request's `:authority` is read.
    public init?(host: UnsafeRawBufferPointer) {
        var end = host.count
        if let colon = host.lastIndex(of: UInt8(ascii: ":")),
            host[(colon + 1)...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        {
            end = colon
        }
        if end > 0, host[end - 1] == UInt8(ascii: ".") { end -= 1 }
        // Apple's names are lower-case letters, digits and dots: `| 0x20` folds an upper-case letter.
        guard
            let found = Self.hosts.first(where: { candidate in
                candidate.name.count == end && candidate.name.indices.allSatisfy { host[$0] | 0x20 == candidate.name[$0] }
            })
        else { return nil }
        self = found.environment
    }
}
