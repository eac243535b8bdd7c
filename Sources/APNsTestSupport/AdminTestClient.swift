import APNsCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A one-request HTTP/1.1 client for the admin API.
public enum AdminTestClient {
    public struct Response: Sendable {
        public var status: Int
        public var body: [UInt8]
        /// The response's headers (names in lower case), in order.
        public var headers: [(name: String, value: String)] = []

        /// The first value of a header.
        public func header(_ name: String) -> String? { self.headers.first { $0.name == name.lowercased() }?.value }

        /// The body parsed as JSON.
        public func json() throws -> Any {
            guard let object = JSONValue.foundationObject(self.body) else { throw NotJSON(body: self.text) }
            return object
        }

        /// A body that is not JSON.
        public struct NotJSON: Error, CustomStringConvertible {
            public var body: String
            public var description: String { "not JSON: \(self.body.prefix(200))" }
        }

        public var text: String { String(decoding: self.body, as: UTF8.self) }
    }

    /// The admin API answered something a test did not expect.
    public struct UnexpectedResponse: Error, CustomStringConvertible {
        public let response: Response
        public var description: String { "admin API answered \(self.response.status): \(self.response.text)" }
    }

    public static func request(host: String, port: Int, method: String = "GET", path: String, body: String? = nil) async throws -> Response {
        let promise = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Response.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(Collector(promise: promise))
                    }
                }
                .connect(host: host, port: port)
                .get()
        } catch {
            // No collector will ever complete the promise.
            promise.fail(error)
            throw error
        }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
        head.headers.add(name: "host", value: "\(host):\(port)")
        head.headers.add(name: "connection", value: "close")
        head.headers.add(name: "content-length", value: String(body?.utf8.count ?? 0))
        // A request NIO refuses to write (say, a path it will not send) must fail, not wait for an answer.
        let written = channel.write(HTTPClientRequestPart.head(head))
        if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(string: body))), promise: nil) }
        do {
            try await channel.writeAndFlush(HTTPClientRequestPart.end(nil))
            try await written.get()
        } catch {
            promise.fail(error)
            try? await channel.close()
            throw error
        }
        let response = try await promise.futureResult.get()
        try? await channel.close()
        return response
    }

    final class Collector: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        private let promise: EventLoopPromise<Response>
        private var response = Response(status: 0, body: [])
        private var done = false

        init(promise: EventLoopPromise<Response>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let head):
                self.response.status = Int(head.status.code)
                self.response.headers = head.headers.map { ($0.name.lowercased(), $0.value) }
            case .body(let buffer): self.response.body += Array(buffer.readableBytesView)
            case .end:
                self.done = true
                self.promise.succeed(self.response)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !self.done {
                self.done = true
                self.promise.fail(ChannelError.eof)
            }
        }
    }
}
