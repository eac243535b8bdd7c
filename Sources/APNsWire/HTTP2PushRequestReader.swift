import APNsCore
import NIOCore

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Builds a ``PushRequest`` from a header block one field at a time, as an HTTP/2 library hands
/// them over: names are compared as bytes, and only the values APNs reads become strings.
public struct HTTP2PushRequestReader {
    public private(set) var request = PushRequest(method: nil)
    /// The APNs headers seen so far, one bit each, to tell a repeated one.
    private var seen: UInt16 = 0

    public init() {}

    /// Takes one field of the block.
    public mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        func text() -> String { String(decoding: value, as: UTF8.self) }
        // A name's length rules out all but one or two of the names read.
        switch name.count {
        case 5 where Self.equal(name, ":path"):
            self.request.path = text()
        case 7 where Self.equal(name, ":method"):
            self.request.method = text()
        case 7 where Self.equal(name, "apns-id"):
            self.note(2)
            self.request.apnsID = text()
        case 10 where Self.equal(name, ":authority"):
            self.request.hostEnvironment = APNsEnvironment(host: value)
        case 10 where Self.equal(name, "apns-topic"):
            self.note(5)
            self.request.topic = text()
        case 13 where Self.equal(name, "apns-priority"):
            self.note(4)
            self.request.priority = text()
        case 13 where Self.equal(name, "authorization"):
            self.note(0)
            self.request.authorization = text()
        case 14 where Self.equal(name, "apns-push-type"):
            self.note(1)
            self.request.pushType = text()
        case 14 where Self.equal(name, "content-length"):
            self.request.contentLength = Int(text())
        case 15 where Self.equal(name, "apns-expiration"):
            self.note(3)
            self.request.expiration = text()
        case 15 where Self.equal(name, "apns-channel-id"):
            self.note(7)
            self.request.channelID = text()
        case 15 where Self.equal(name, "apns-request-id"):
            self.note(8)
            self.request.requestID = text()
        case 16 where Self.equal(name, "apns-collapse-id"):
            self.note(6)
            self.request.collapseID = text()
        default:
            break
        }
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        guard let base = bytes.baseAddress, bytes.count == name.utf8CodeUnitCount else { return false }
        return memcmp(base, name.utf8Start, bytes.count) == 0
    }

    /// Marks APNs header `bit` as seen, telling a repeated one (APNs refuses those: DuplicateHeaders).
    private mutating func note(_ bit: Int) {
        let mask = UInt16(1) << bit
        if self.seen & mask != 0 { self.request.hasDuplicateHeaders = true }
        self.seen |= mask
    }
}
