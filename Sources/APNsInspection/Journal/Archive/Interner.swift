/// Small integer ids for strings the journal's archive holds many copies of (topics, push types,
/// rejected requests' tokens as sent): each distinct value is kept once. Ids are never reused until ``removeAll()``.
struct Interner<Value: Hashable & Sendable>: Sendable {
    private var ids: [Value: UInt32] = [:]
    private var values: [Value] = []
    /// The value asked for last and its id: a load test sends one topic and push type throughout,
    /// and an equality check is cheaper than hashing.
    private var last: (value: Value, id: UInt32)?

    /// The id of `value`, given one now if it has none.
    mutating func id(_ value: Value) -> UInt32 {
        if let last = self.last, last.value == value { return last.id }
        let id: UInt32
        if let known = self.ids[value] {
            id = known
        } else {
            id = UInt32(self.values.count)
            self.values.append(value)
            self.ids[value] = id
        }
        self.last = (value, id)
        return id
    }

    /// The id of `value`, if it has one.
    func existing(_ value: Value) -> UInt32? { self.ids[value] }

    subscript(id: UInt32) -> Value { self.values[Int(id)] }

    /// The ids of every value `condition` holds for.
    func ids(where condition: (Value) -> Bool) -> Set<UInt32> {
        Set(self.values.indices.filter { condition(self.values[$0]) }.map { UInt32($0) })
    }

    mutating func removeAll() {
        self.ids.removeAll()
        self.values.removeAll()
        self.last = nil
    }
}
