import APNsCore
import Synchronization

/// The fault rules in force, changed at run time through the admin API and consulted for every
/// provider request. With no rules (the usual case) a request costs one atomic load.
public final class FaultBook: Sendable {
    private let rules = Mutex<[FaultRule]>([])
    private let count = Atomic<Int>(0)
    private let nextID = Atomic<Int>(1)
    /// What every id starts with: `fault-`, or `s<K>-fault-` on shard K of a cluster, so that a
    /// rule's id names the shard that holds it.
    private let idPrefix: String

    public init(idPrefix: String = "fault-") {
        self.idPrefix = idPrefix
    }

    /// Adds a rule under a new id; rules are tried in the order they were added.
    @discardableResult
    public func add(match: FaultRule.Match, action: FaultRule.Action, times: Int?, probability: Double) -> FaultRule {
        let id = "\(self.idPrefix)\(self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue)"
        let rule = FaultRule(id: id, match: match, action: action, times: times, probability: probability)
        self.rules.withLock { rules in
            rules.append(rule)
            self.count.store(rules.count, ordering: .releasing)
        }
        return rule
    }

    /// Adds a rule as a seed file gives it, keeping its id and hits; ids given out later come
    /// after the highest this book's prefix numbers.
    public func restore(_ rule: FaultRule) {
        if rule.id.hasPrefix(self.idPrefix), let number = Int(rule.id.dropFirst(self.idPrefix.count)) {
            var next = self.nextID.load(ordering: .relaxed)
            while next <= number {
                let (exchanged, original) = self.nextID.compareExchange(
                    expected: next, desired: number + 1, ordering: .relaxed)
                if exchanged { break }
                next = original
            }
        }
        self.rules.withLock { rules in
            rules.removeAll { $0.id == rule.id }
            rules.append(rule)
            self.count.store(rules.count, ordering: .releasing)
        }
    }

    /// Every rule in force, oldest first.
    public var all: [FaultRule] { self.rules.withLock { $0 } }

    public func rule(id: String) -> FaultRule? { self.rules.withLock { $0.first { $0.id == id } } }

    /// Removes one rule; false when there is no such rule.
    @discardableResult
    public func remove(id: String) -> Bool {
        self.rules.withLock { rules in
            guard let index = rules.firstIndex(where: { $0.id == id }) else { return false }
            rules.remove(at: index)
            self.count.store(rules.count, ordering: .releasing)
            return true
        }
    }

    /// Removes every rule.
    public func removeAll() {
        self.rules.withLock { rules in
            rules.removeAll()
            self.count.store(0, ordering: .releasing)
        }
    }

    /// Whether any rule is in force.
    public var isActive: Bool { self.count.load(ordering: .acquiring) > 0 }

    /// The rule that applies to this request, if any, counted as applied (a rule whose `times`
    /// run out is removed). Call from any thread.
    public func fault(for request: FaultRequest) -> FaultRule? {
        guard self.isActive else { return nil }
        return self.rules.withLock { rules -> FaultRule? in
            for index in rules.indices where rules[index].matches(request) {
                let probability = rules[index].probability
                if probability < 1 && Double.random(in: 0..<1) >= probability { continue }
                rules[index].hits += 1
                if let remaining = rules[index].remaining { rules[index].remaining = remaining - 1 }
                let applied = rules[index]
                if applied.remaining == 0 {
                    rules.remove(at: index)
                    self.count.store(rules.count, ordering: .releasing)
                }
                return applied
            }
            return nil
        }
    }
}
