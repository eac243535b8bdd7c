import APNsCore
import APNsInspection
import NIOCore

/// What the admin API refuses with: a reason (which fixes the HTTP status) and a message saying
/// what was wrong and what to do. Routes name the reason, never a literal status.
struct AdminError: Error, Equatable, Sendable {
    enum Reason: String, Sendable, CaseIterable {
        /// A body or a query parameter that does not parse or is out of range.
        case badRequest
        /// No admin token, or the wrong one, where the admin API asks for one.
        case unauthorized
        /// A caller it cannot trust: another site's page, a Host that is not this emulator's.
        case forbidden
        /// Nothing by that name: a token, an id, an endpoint.
        case notFound
        /// A method the path does not take (`Allow` lists the ones it does).
        case notAllowed
        /// Well-formed, but the state of the emulator or the phone says no.
        case conflict
        /// A wait that ended with nothing matching.
        case timedOut
        /// The emulator could not read what it holds.
        case internalError
        /// A fault rule closed the connection before the provider API answered.
        case badGateway
        /// A write that did not commit, a shard that did not answer, a listener not bound yet.
        case unavailable

        var status: Int {
            switch self {
            case .badRequest: 400
            case .unauthorized: 401
            case .forbidden: 403
            case .notFound: 404
            case .notAllowed: 405
            case .conflict: 409
            case .timedOut: 408
            case .internalError: 500
            case .badGateway: 502
            case .unavailable: 503
            }
        }
    }

    var reason: Reason
    var message: String
    var status: Int { self.reason.status }

    init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// A phone operation's refusal, as the admin API says it: 400 invalid, 404 not found, 409 a
    /// conflict with the phone's state, 500 a failed read, 503 a failed save.
    init(_ refusal: PhoneRefusal) {
        let reason: Reason =
            switch refusal.kind {
            case .invalid: .badRequest
            case .notFound: .notFound
            case .conflict: .conflict
            case .failedReading: .internalError
            case .failedSaving: .unavailable
            }
        self.init(reason, refusal.message)
    }

    /// A query parameter or a document the inspection could not read: 400 with its words.
    init(_ error: InspectionError) {
        self.init(.badRequest, error.message)
    }

    /// The answer: the status, and `{"error": message}`.
    var response: AdminRouter.Response {
        AdminRouter.Response(status: self.status, body: JSONWriter.error(self.message))
    }
}

extension EventLoopFuture {
    /// This future, its failure an ``AdminError``: one already is stays as it is; any other
    /// becomes one for `reason`, its message `context` followed by the error's words.
    /// ``AdminRouter/respond(method:uri:body:on:)`` answers it.
    func failing(as reason: AdminError.Reason, _ context: String = "") -> EventLoopFuture<Value> {
        self.flatMapErrorThrowing { error in
            if let error = error as? AdminError { throw error }
            throw AdminError(reason, context + "\(error)")
        }
    }

    /// This future, a phone operation's failure as the admin API refuses it: ``PhoneRefusal``'s
    /// status and words.
    func failingAsRefusal() -> EventLoopFuture<Value> {
        self.flatMapErrorThrowing { throw AdminError(PhoneRefusal($0, saving: "the change")) }
    }
}

extension AdminRouter {
    /// What the inspection reads from a query or a document (a filter, a limit, a duration), with
    /// its refusal as the admin API's: 400 with its words.
    static func read<T>(_ body: @autoclosure () throws(InspectionError) -> T) throws(AdminError) -> T {
        do {
            return try body()
        } catch {
            throw AdminError(error)
        }
    }

    /// A phone operation's JSON, 200, or its refusal.
    static func answer(_ result: Result<[UInt8], PhoneRefusal>) throws(AdminError) -> Response {
        switch result {
        case .success(let body): return Response(status: 200, body: body)
        case .failure(let refusal): throw AdminError(refusal)
        }
    }

    /// What a phone operation's door reads from a document (``PhoneRefusal/reading(_:from:example:)``),
    /// with its refusal as the admin API's.
    static func readPhoneDocument<T>(_ body: @autoclosure () throws(PhoneRefusal) -> T) throws(AdminError) -> T {
        do {
            return try body()
        } catch {
            throw AdminError(error)
        }
    }
}
