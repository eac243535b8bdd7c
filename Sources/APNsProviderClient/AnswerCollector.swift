import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// Collects one stream's answer, on its event loop.
final class AnswerCollector: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    private let promise: EventLoopPromise<ProviderAnswer>
    private var answer = ProviderAnswer(status: 0, headers: [], body: [])
    private var done = false

    init(promise: EventLoopPromise<ProviderAnswer>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .headers(let headers):
            for (name, value, _) in headers.headers {
                if name == ":status" { self.answer.status = Int(value) ?? 0 } else { self.answer.headers.append((name, value)) }
            }
            if headers.endStream { self.complete() }
        case .data(let data):
            if case .byteBuffer(let buffer) = data.data { self.answer.body += buffer.readableBytesView }
            if data.endStream { self.complete() }
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.fail(ProviderClientError("the stream closed before APNs answered"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.fail(error)
        context.close(promise: nil)
    }

    // The client's timeout may have failed the promise first; a later answer is then ignored
    // (a promise keeps its first result).
    private func fail(_ error: any Error) {
        guard !self.done else { return }
        self.done = true
        self.promise.fail(error)
    }

    private func complete() {
        guard !self.done else { return }
        self.done = true
        self.promise.succeed(self.answer)
    }
}
