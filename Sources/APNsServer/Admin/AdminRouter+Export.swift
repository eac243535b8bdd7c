import APNsCore

extension AdminRouter {
    /// `POST /api/v1/export`: the world as a seed document (`serve --seed` of it starts the
    /// same one). This emulator's alone: on a shard of a cluster, each shard exports its own.
    func exportWorld() throws(AdminError) -> Response {
        guard let world = self.world else { throw AdminError(.unavailable, "this admin API has no world to export") }
        do {
            return Response(status: 200, body: try world.document().prettyPrinted)
        } catch {
            throw AdminError(.internalError, "could not read the world to export it: \(error)")
        }
    }
}
