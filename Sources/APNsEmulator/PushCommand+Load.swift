import APNsProviderClient
import Foundation

/// `apns-emulator push --count N --concurrency C`: the same push N times, C in flight at once on
/// one HTTP/2 connection, and a summary of the answers.
extension PushCommand {
    struct Summary {
        var text: String
        var refused: Int
    }

    static func load(_ push: ProviderPush, count: Int, concurrency: Int, on client: ProviderClient) async throws -> Summary {
        let start = ContinuousClock.now
        var outcomes: [String: Int] = [:]
        try await withThrowingTaskGroup(of: String.self) { group in
            func send() {
                group.addTask {
                    try await client.push(push).outcome
                }
            }
            var sent = 0
            while sent < min(concurrency, count) {
                send()
                sent += 1
            }
            while let outcome = try await group.next() {
                outcomes[outcome, default: 0] += 1
                if sent < count {
                    send()
                    sent += 1
                }
            }
        }
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(count) / seconds : 0
        let answers = outcomes.sorted { $0.key < $1.key }.map { "\($0.key) x\($0.value)" }.joined(separator: ", ")
        let refused = outcomes.filter { !$0.key.hasPrefix("200 ") }.values.reduce(0, +)
        let text =
            "\(count) sent in \(String(format: "%.3f", seconds)) s (\(String(format: "%.0f", rate))/s, \(concurrency) in flight): \(answers)"
        return Summary(text: text, refused: refused)
    }
}
