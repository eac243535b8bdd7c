import APNsCore
import APNsDevice
import Dispatch
import Synchronization

/// Every notification the emulator received (without a store the newest `capacity`; with one,
/// its index of all the store keeps, ``useArchive(_:)``): accepted ones as the store reports them
/// (and how they left their queues), rejected ones as the front doors report them.
/// Tells waiters and live subscribers (the admin API's long polls and event stream) as it changes.
///
/// Thread-safe. The store's commits are taken in as they come (``apply(_:)``) and applied by a
/// follower of their own, off the writer's thread (a small one with none waiting, where it was
/// made); whatever reads or changes the journal first applies every commit handed over before it
/// (``locked(_:)``), so a read after an answer shows what the answer said. Listeners are called
/// under the journal's lock, in order, and must only hand the event on (e.g. `eventLoop.execute`).
public final class Journal: Sendable {
    /// One change, as the event stream shows it.
    public struct Event: Sendable {
        /// accepted, rejected, delivered, expired, discarded, replaced, dropped, presented,
        /// response, activity, or reset.
        public var kind: String
        public var entry: JournalEntry?
        /// For `activity`: the change to a Live Activity.
        public var activity: ActivityEvent?

        public init(kind: String, entry: JournalEntry?, activity: ActivityEvent? = nil) {
            self.kind = kind
            self.entry = entry
            self.activity = activity
        }
    }

    public typealias Listener = @Sendable (Event) -> Void

    struct Waiter {
        let filter: JournalFilter
        let resume: @Sendable (JournalEntry) -> Void
    }

    struct State {
        var journal: JournalState
        var waiters: [UInt64: Waiter] = [:]
        var subscribers: [UInt64: Listener] = [:]
        var nextToken: UInt64 = 1
        /// Where the archive's entries are read back from (``useArchive(_:)``).
        var archiveSource: (any JournalArchiveSource)?
        /// Where the phone's records of stored notifications are kept (``keepPhoneRecords(_:)``).
        var phoneKeeper: (@Sendable (_ sequence: UInt64, _ record: [UInt8]) -> Void)?
    }

    /// The journal itself: reached through ``locked(_:)`` only, which applies the commits waiting first.
    let guarded: Mutex<State>
    /// Commits handed over by the store and not yet applied, oldest first.
    let pending = Mutex<[StoreCommit]>([])
    /// Where the commits handed over are applied when nothing reads the journal first.
    let follower = DispatchQueue(label: "apns-emulator.journal")
    /// Where the Console's metrics are counted, as the delivery log's steps happen.
    private let console: ConsoleMetrics?

    public init(capacity: Int, console: ConsoleMetrics? = nil) {
        self.guarded = Mutex(State(journal: JournalState(capacity: capacity)))
        self.console = console
    }

    /// Reads the journal under its lock.
    public func read<T>(_ body: (JournalState) -> T) -> T {
        self.locked { body($0.journal) }
    }

    /// Applies one store commit, under the journal's lock (``locked(_:)``).
    func apply(_ commit: StoreCommit, _ state: inout State) {
        // Events are only built for someone to hear them: this runs for every notification.
        let heard = !state.subscribers.isEmpty || !state.waiters.isEmpty
        // Notifications dropped for room, as the store last had them: the journal holds the young
        // ones whole, since the store does not keep them (`.unkept` follows in the same commit).
        var dropped: [UInt64: Notification] = [:]
        for change in commit.changes {
            switch change {
            case .accepted(let notification, let sequence, let at, let logged, let connected):
                let status = logged.map(JournalStatus.init) ?? .queued
                let marks: DeliveryMarks = logged == nil && !connected ? .storedOffline : []
                let entry = JournalEntry(
                    id: 0, push: .accepted(notification), status: status, statusAt: logged == nil ? nil : at,
                    sequence: sequence, marks: marks)
                // No copy of the entry is kept unless someone listens: this runs for every notification.
                let event = heard ? entry : nil
                let id = state.journal.add(entry)
                self.count(status: status, marks: marks, notification, logged: logged)
                guard var event else { continue }
                event.id = id
                Self.emit(Event(kind: "accepted", entry: event), &state)
                if logged != nil { Self.emit(Event(kind: status.rawValue, entry: event), &state) }
            case .left(let left, let sequence, let logged, let at):
                let status = JournalStatus(logged)
                let changed = state.journal.changed(sequence: sequence, status: status, at: at)
                if status == .dropped, let whole = left.whole { dropped[sequence] = whole }
                if let console = self.console, let name = Self.outcomeName(status, changed) {
                    console.count(name, pushType: left.pushType, priority: left.priority)
                }
                guard heard else { continue }
                let entry: JournalEntry?
                switch changed {
                case .whole(let whole): entry = whole
                case .archived(let archived, _):
                    entry = Self.changedEntry(
                        left, sequence: sequence, status: status, at: at, archived: state.journal.archive?.read(archived),
                        from: state.archiveSource)
                // An entry the journal no longer holds still has its event, rebuilt from the store's copy.
                case nil:
                    entry = Self.changedEntry(
                        left, sequence: sequence, status: status, at: at, archived: nil, from: state.archiveSource)
                }
                guard let entry else { continue }
                Self.emit(Event(kind: status.rawValue, entry: entry), &state)
            case .forgotten(let sequences, let rejections):
                state.journal.forget(sequences: sequences, rejections: rejections)
            case .unkept(let sequences):
                state.journal.unkept(sequences: sequences, whole: dropped)
            case .cleared:
                state.journal.removeAll()
                Self.emit(Event(kind: "reset", entry: nil), &state)
            }
        }
    }

    /// Counts an accepted notification's first steps among the Console's metrics.
    private func count(status: JournalStatus, marks: DeliveryMarks, _ notification: Notification, logged: LogStatus?) {
        guard let console = self.console else { return }
        console.count(metric: ConsoleMetrics.receivedIndex, notification)
        if marks.contains(.storedOffline) { console.count(metric: ConsoleMetrics.storedOfflineIndex, notification) }
        // A new entry has no presentation yet.
        if logged != nil, let name = DeliveryLog.outcomeName(status, marks, nil) { console.count(name, notification) }
    }

    /// Records a request a provider got an error for.
    public func rejected(_ push: RejectedPush, fault: FaultMark? = nil) {
        self.locked { state in
            let entry = state.journal.append(.rejected(push), status: .of(push), fault: fault)
            Self.emit(Event(kind: entry.status.rawValue, entry: entry), &state)
        }
    }

    /// Records a channel management request or a broadcast (event `broadcast`, or `rejected`);
    /// ``Inspection/broadcast(_:fault:)`` also keeps it in the store.
    public func broadcast(_ record: BroadcastRecord, fault: FaultMark? = nil) {
        self.locked { state in
            let entry = Self.appendBroadcast(record, fault: fault, &state)
            Self.emit(Event(kind: entry.status == .rejected ? "rejected" : "broadcast", entry: entry), &state)
        }
    }

    @discardableResult
    private static func appendBroadcast(_ record: BroadcastRecord, fault: FaultMark?, _ state: inout State) -> JournalEntry {
        let status: JournalStatus = record.reason == nil ? .accepted : .rejected
        return state.journal.append(
            .broadcast(record), status: status, statusAt: record.reason == nil ? record.receivedAt : nil, fault: fault)
    }

    /// Marks an accepted notification's answer as shaped by a fault rule (e.g. delayed).
    public func mark(uniqueID: String, fault: FaultMark) {
        self.change(uniqueID: uniqueID) { $0.fault = fault }
    }

    /// An accepted notification came over HTTP/1.1 (a Web Push sender's choice), for its delivery log.
    public func cameOverHTTP1(uniqueID: String) {
        self.change(uniqueID: uniqueID) { $0.marks.insert(.overHTTP1) }
    }

    /// The device's power state held an accepted notification back (the first time counts).
    public func held(uniqueID: String, at: Int64) {
        self.change(uniqueID: uniqueID) { entry in
            guard !entry.marks.contains(.storedPower) else { return }
            entry.marks.insert(.storedPower)
            entry.heldAt = at
            if case .accepted(let notification) = entry.push { self.console?.count(DeliveryLog.storedPower, notification) }
        }
    }

    /// The phone applied (or ignored) a Live Activity push.
    public func activity(uniqueID: String, _ record: ActivityRecord) {
        self.change(uniqueID: uniqueID) { $0.activity = record }
    }

    /// Live Activities changed: each change goes to the event stream as an `activity` event.
    public func activityEvents(_ events: [ActivityEvent]) {
        self.locked { state in
            for event in events { Self.emit(Event(kind: "activity", entry: nil, activity: event), &state) }
        }
    }

    /// A notification was handed to the iOS Simulator (or failed to be).
    public func forwarded(uniqueID: String, _ outcome: SimulatorForward) {
        self.change(uniqueID: uniqueID, { $0.simulator = outcome }) { entry, state in
            Self.emit(Event(kind: "simulator", entry: entry), &state)
        }
    }

    /// Loads what the store already holds (at start, before anyone listens): `visit` hands over
    /// each stored notification in store order (`status` nil for a queued one, else how it left
    /// its queue at `at`), and the kept requests (refused ones, channel requests and broadcasts)
    /// are merged in by arrival, and each notification gets what the phone made of it (`phone`,
    /// by sequence). The ring keeps the newest; with an archive (``useArchive(_:)``) every one is
    /// indexed there.
    public func seed<E: Error>(
        kept: [KeptRequest] = [],
        phone: [UInt64: PhoneRecord] = [:],
        _ visit: ((_ sequence: UInt64, _ status: LogStatus?, _ at: Int64?, _ notification: Notification) -> Void) throws(E) ->
            Void
    ) throws(E) {
        var requests = kept.sorted { $0.receivedAt < $1.receivedAt }[...]
        try self.locked { (state: inout State) throws(E) in
            func requestsBefore(_ time: Int64) {
                while let first = requests.first, first.receivedAt < time {
                    requests = requests.dropFirst()
                    switch first {
                    case .rejected(let push, let fault):
                        state.journal.append(.rejected(push), status: .of(push), fault: fault)
                    case .broadcast(let record, let fault):
                        Self.appendBroadcast(record, fault: fault, &state)
                    }
                }
            }
            try visit { sequence, logged, at, notification in
                requestsBefore(notification.receivedAt)
                let status = logged.map(JournalStatus.init) ?? .queued
                // What is still queued after a restart waits in storage for its device.
                var entry = JournalEntry(
                    id: 0, push: .accepted(notification), status: status, statusAt: at, sequence: sequence,
                    marks: status == .queued ? .storedOffline : [])
                entry.phone = phone[sequence]
                state.journal.add(entry)
            }
            requestsBefore(.max)
        }
    }

    /// Whether a wait with `filter` is satisfied by `entry`: a wait without a status filter is
    /// for an accepted notification.
    public static func waitMatches(_ filter: JournalFilter, _ entry: JournalEntry) -> Bool {
        filter.matches(entry) && (filter.status != nil || (entry.status != .rejected && entry.status != .notProcessed))
            && entry.id > 0
    }

    /// How many long polls are waiting for a notification now.
    public var pendingWaits: Int { self.locked { $0.waiters.count } }

    /// Stops a wait (it timed out); false when it was already satisfied.
    @discardableResult
    public func cancelWait(_ token: UInt64) -> Bool {
        self.locked { $0.waiters.removeValue(forKey: token) != nil }
    }

    /// Calls `listener` with every later event, in order, until ``unsubscribe(_:)``.
    public func subscribe(_ listener: @escaping Listener) -> UInt64 {
        self.locked { state in
            let token = state.nextToken
            state.nextToken += 1
            state.subscribers[token] = listener
            return token
        }
    }

    public func unsubscribe(_ token: UInt64) {
        self.locked { _ = $0.subscribers.removeValue(forKey: token) }
    }

    static func emit(_ event: Event, _ state: inout State) {
        for listener in state.subscribers.values { listener(event) }
        guard !state.waiters.isEmpty, let entry = event.entry else { return }
        for (token, waiter) in state.waiters where Self.waitMatches(waiter.filter, entry) {
            state.waiters[token] = nil
            waiter.resume(entry)
        }
    }
}
