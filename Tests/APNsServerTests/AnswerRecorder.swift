import APNsAuth
import APNsCore
import APNsInspection
import APNsWire
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import APNsServer

/// Stands in for the connection: keeps what the streams send, in order, and reports each answer
/// written at once.
final class AnswerRecorder: StreamAnswerSink {
    private(set) var sent: [StreamAnswer] = []
    private(set) var goneAway: [(id: Int32, reason: String)] = []
    private(set) var resets = 0

    func send(_ answer: StreamAnswer, on id: Int32, written: EventLoopPromise<Void>?) {
        self.sent.append(answer)
        written?.succeed()
    }

    func goAway(from id: Int32, reason: String) { self.goneAway.append((id, reason)) }

    func resetConnection() { self.resets += 1 }

    /// The oldest answer not read yet.
    func next() -> StreamAnswer? { self.sent.isEmpty ? nil : self.sent.removeFirst() }
}
