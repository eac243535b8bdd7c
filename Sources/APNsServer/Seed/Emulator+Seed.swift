import APNsInspection
import NIOCore

extension Emulator {
    /// One admin API request that seeds the emulator at start (`serve --config`).
    public struct SeedRequest: Sendable {
        public var method: String
        public var path: String
        public var body: [UInt8]
        /// Where it came from in the config file (`devices[2]`), for the error.
        public var origin: String
        /// An answer that is fine too (409 for a token already registered by an earlier start).
        public var alsoFine: Int?

        public init(method: String, path: String, body: [UInt8], origin: String, alsoFine: Int? = nil) {
            (self.method, self.path, self.body, self.origin, self.alsoFine) = (method, path, body, origin, alsoFine)
        }
    }

    /// Carries out `requests` in order through the admin API's own routes (so they are checked as
    /// the API checks them); the first refused throws, naming where it came from and why. Returns
    /// each answer's body.
    @discardableResult
    public func seed(_ requests: [SeedRequest]) async throws -> [[UInt8]] {
        let router = AdminRouter(relay: self.relay, inspection: self.inspection, readiness: self.readiness, clock: self.clock)
        var answers: [[UInt8]] = []
        for request in requests {
            // The routes run on an event loop, as they do for a connection.
            let loop = self.group.next()
            let reply = try await loop.flatSubmit {
                router.respond(method: request.method, uri: request.path, body: request.body, on: loop)
            }.get()
            guard case .response(let response) = reply else { continue }
            guard response.status < 400 || response.status == request.alsoFine else {
                throw ServerError(.badConfiguration, subject: request.origin, String(decoding: response.body, as: UTF8.self))
            }
            answers.append(response.body)
        }
        return answers
    }
}
