import APNsDevice
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `Process` and its pipes, handed to the threads that feed and read it (Foundation's are not
/// `Sendable`; each thread uses only its own pipe, and the process once it has exited).
final class ExtensionProcess: @unchecked Sendable {
    let process: Process
    /// Kept until the threads are done: a pipe closes its descriptors when released.
    let pipes: [Pipe]

    init(_ process: Process, pipes: [Pipe]) {
        self.process = process
        self.pipes = pipes
    }

    /// Writes `bytes` and closes the pipe; a command that exits without reading them is no
    /// error (SIGPIPE is blocked on this thread, so the write fails with EPIPE instead).
    func write(_ bytes: [UInt8], to handle: FileHandle) {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let descriptor = handle.fileDescriptor
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        try? handle.close()
    }

    /// Reads until the end of the pipe, keeping at most `limit` bytes (the rest is drained).
    func read(_ handle: FileHandle, limit: Int) -> [UInt8] {
        var kept: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let descriptor = handle.fileDescriptor
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            if kept.count < limit { kept.append(contentsOf: chunk[0..<min(count, limit - kept.count)]) }
        }
        return kept
    }

    /// What the exited command's run comes to.
    func outcome(output: [UInt8], errors: () -> [UInt8]) -> Result<[UInt8], ExtensionReplyError> {
        self.process.waitUntilExit()
        let said = String(decoding: errors(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let tail = said.isEmpty ? "" : " (it said: \(said))"
        let status = self.process.terminationStatus
        switch self.process.terminationReason {
        case .uncaughtSignal:
            return .failure(ExtensionReplyError("the command crashed (signal \(status))\(tail)"))
        case .exit where status != 0:
            return .failure(ExtensionReplyError("the command exited with status \(status)\(tail)"))
        case .exit where output.count > ServiceExtensionRunner.replyLimit:
            return .failure(ExtensionReplyError("the command printed more than \(ServiceExtensionRunner.replyLimit) bytes"))
        default:
            return .success(output)
        }
    }
}
