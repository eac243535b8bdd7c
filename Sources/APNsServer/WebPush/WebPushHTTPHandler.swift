import NIOCore
import NIOHTTP1

/// Reads one Web Push request at a time (an HTTP/1.1 connection's, or one HTTP/2 stream's through
/// swift-nio-http2's HTTP/1 codec) and answers it through the intake; on the channel's loop.
/// Codec only: every rule is the intake's.
final class WebPushHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let intake: PushIntake
    private let port: Int?
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodyTooLong = false

    init(intake: PushIntake, port: Int?) {
        self.intake = intake
        self.port = port
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            (self.head, self.body, self.bodyTooLong) = (head, [], false)
        case .body(let buffer):
            // Past the limit the bytes are read and dropped: the answer is 413 either way.
            if self.body.count + buffer.readableBytes <= WebPushRequest.maximumBody {
                self.body += buffer.readableBytesView
            } else {
                self.bodyTooLong = true
            }
        case .end:
            guard let head = self.head else { return }
            self.head = nil
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let request = WebPushRequest(
                method: head.method.rawValue, path: String(head.uri.prefix(while: { $0 != "?" })), headers: headers,
                body: self.body, bodyTooLong: self.bodyTooLong, origin: headers["host"].map { "https://\($0)" }, port: self.port,
                overHTTP1: head.version.major < 2)
            self.body = []
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            self.intake.take(webPush: request, on: context.eventLoop) { answer in
                let (handler, context) = bound.value
                handler.write(answer, keepAlive: head.isKeepAlive, version: head.version, context: context)
            }
        }
    }

    private func write(_ answer: WebPushAnswer, keepAlive: Bool, version: HTTPVersion, context: ChannelHandlerContext) {
        guard !answer.reset else {
            context.close(promise: nil)
            return
        }
        var headers = HTTPHeaders(answer.headers)
        headers.add(name: "content-length", value: String(answer.body.count))
        if !keepAlive && version.major == 1 { headers.add(name: "connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(
            self.wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        if !answer.body.isEmpty {
            context.write(
                self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        }
        let done = context.writeAndFlush(self.wrapOutboundOut(.end(nil)))
        if !keepAlive && version.major == 1 { done.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
    }
}
