import APNsCore
import APNsInspection
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Reads one HTTP/1.1 request at a time and answers it through the router, or turns the
/// connection into a Server-Sent Events stream of the journal; on the channel's loop.
final class AdminHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Admin request bodies are small JSON documents.
    static let maximumBody = 64 << 10
    /// An idle event stream gets a comment this often, so proxies and clients keep it open.
    static let keepAlive = TimeAmount.seconds(15)

    private let router: AdminRouter
    private let access: AdminAccess
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    /// The journal subscription of an event stream, and its keep-alive timer.
    private var subscription: UInt64?
    private var keepAliveTask: Scheduled<Void>?
    /// A cluster's event stream: the other shards' streams joined to it.
    private var peerEvents: PeerEvents?

    init(router: AdminRouter, access: AdminAccess) {
        self.router = router
        self.access = access
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            self.body = []
        case .body(let buffer):
            if self.body.count + buffer.readableBytes <= Self.maximumBody { self.body += buffer.readableBytesView }
        case .end:
            guard let head = self.head, self.subscription == nil else { return }
            self.head = nil
            self.answer(head, context: context)
        }
    }

    /// Answers one whole request: refused by ``AdminAccess``, the login page, or a route's.
    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let method = head.method.rawValue
        let origin: String?
        switch self.access.check(method: method, uri: head.uri, headers: head.headers) {
        case .answer(let refusal): return self.write(refusal, version: head.version, context: context)
        case .admit(let allowed): origin = allowed
        }
        if head.uri == AdminLogin.logoutPath {
            return self.write(AdminLogin.logout(method: method), version: head.version, context: context)
        }
        if head.uri == AdminLogin.path || head.uri.hasPrefix(AdminLogin.path + "?") {
            let page = AdminLogin.respond(method: method, uri: head.uri, body: self.body, access: self.access)
            return self.write(page, version: head.version, context: context)
        }
        self.router.respond(method: method, uri: head.uri, body: self.body, on: context.eventLoop)
            .assumeIsolated().whenSuccess { reply in
                switch reply {
                case .response(var response):
                    if let origin { response.headers.merge(AdminAccess.corsHeaders(origin)) { $1 } }
                    self.write(response, version: head.version, context: context)
                case .events(let filter, let peers):
                    self.startEvents(filter, cors: origin, version: head.version, context: context)
                    if let peers, let cluster = self.router.cluster {
                        self.startPeerEvents(peers, cluster, context: context)
                    }
                }
            }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.stopEvents()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.stopEvents()
        context.fireChannelInactive()
    }

    private func write(_ response: AdminRouter.Response, version: HTTPVersion, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: response.contentType)
        headers.add(name: "content-length", value: String(response.body.count))
        if let allow = response.allow { headers.add(name: "allow", value: allow) }
        if let shards = response.shards { headers.add(name: "apns-emulator-shards", value: shards) }
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        // The web inbox loads only from this origin; every answer says so, and is never sniffed.
        headers.add(name: "content-security-policy", value: InboxAssets.securityPolicy)
        headers.add(name: "x-content-type-options", value: "nosniff")
        headers.add(name: "cache-control", value: "no-cache")
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(self.wrapOutboundOut(.head(.init(version: version, status: status, headers: headers))), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: response.body.count)
        buffer.writeBytes(response.body)
        context.write(self.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Answers with `text/event-stream` and writes every later journal event that passes `filter`
    /// (a reset always does), until the client goes away.
    private func startEvents(_ filter: JournalFilter, cors: String?, version: HTTPVersion, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        for (name, value) in cors.map(AdminAccess.corsHeaders) ?? [String: String]() { headers.add(name: name, value: value) }
        headers.add(name: "content-type", value: "text/event-stream")
        headers.add(name: "cache-control", value: "no-cache")
        context.write(self.wrapOutboundOut(.head(.init(version: version, status: .ok, headers: headers))), promise: nil)
        self.writeEvent(
            ": stream of accepted, rejected, delivered, expired, discarded, replaced, dropped, unregistered, presented, response, activity, broadcast and reset events\n\n",
            context: context)
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        self.subscription = self.router.inspection.journal.subscribe { event in
            guard event.entry.map(filter.matches) ?? true else { return }
            let text = JournalJSON.serverSentEvent(event)
            loop.execute { bound.value.handler.writeEvent(text, context: bound.value.context) }
        }
        self.scheduleKeepAlive(context: context)
    }

    private func scheduleKeepAlive(context: ChannelHandlerContext) {
        self.keepAliveTask = context.eventLoop.assumeIsolated().scheduleTask(in: Self.keepAlive) {
            guard self.subscription != nil else { return }
            self.writeEvent(": keep-alive\n\n", context: context)
            self.scheduleKeepAlive(context: context)
        }
    }

    /// Adds the other shards' events to this stream (``PeerEvents``).
    private func startPeerEvents(_ query: String, _ cluster: Cluster, context: ChannelHandlerContext) {
        let peers = PeerEvents(cluster: cluster, query: query, loop: context.eventLoop) { [weak self] text in
            self?.writeEvent(text, context: context)
        }
        self.peerEvents = peers
        peers.start()
    }

    private func writeEvent(_ text: String, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    }

    private func stopEvents() {
        if let subscription = self.subscription { self.router.inspection.journal.unsubscribe(subscription) }
        self.subscription = nil
        self.keepAliveTask?.cancel()
        self.keepAliveTask = nil
        self.peerEvents?.stop()
        self.peerEvents = nil
    }
}
