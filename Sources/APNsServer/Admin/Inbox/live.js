// The live event stream, and the shards a cluster's lists come from.
import { $ } from "./core.js";
import { Channels } from "./devices.js";
import { Inbox } from "./list.js";
import { Phone } from "./phone.js";

// MARK: Shards

// On a shard of a cluster (serve --cluster-peers) the lists and events are every shard's: the
// header says how many answered, and names the ones that did not.
export const Shards = {
  show(shards) {
    const element = $("#shards");
    const answered = shards.answered || [];
    const missing = shards.unanswered || [];
    const total = answered.length + missing.length;
    element.hidden = false;
    element.textContent = `${answered.length} of ${total} shards` + (missing.length ? ` (shard ${missing.map((s) => s.shard).join(", ")} not answering)` : "");
    element.title = missing.map((s) => `shard ${s.shard} (${s.address}): ${s.error}`).join("\n");
    element.className = missing.length ? "shards off" : "shards";
  },
};

// MARK: Events

export const Live = {
  source: null,
  kinds: ["accepted", "rejected", "notProcessed", "delivered", "expired", "discarded", "replaced", "dropped", "unregistered", "presented", "response", "broadcast"],

  start() {
    const source = new EventSource("/api/v1/events");
    this.source = source;
    const status = $("#live");
    source.onopen = () => {
      status.textContent = "live";
      status.className = "live on";
      // Anything missed while disconnected comes from the journal.
      Inbox.load().catch(() => {});
    };
    source.onerror = () => {
      status.textContent = "reconnecting…";
      status.className = "live off";
    };
    for (const kind of this.kinds) {
      source.addEventListener(kind, (event) => {
        let item;
        try { item = JSON.parse(event.data); } catch { return; }
        if (!item || !item.id) return;
        Inbox.heard(item, kind === "accepted" || kind === "rejected" || kind === "notProcessed" || kind === "broadcast");
        if (kind === "broadcast" && !$("#view-channels").hidden) Channels.load();
        Phone.heard(item);
      });
    }
    source.addEventListener("reset", () => { Inbox.clear(); Phone.refresh(); });
    source.addEventListener("shards", (event) => {
      try { Shards.show(JSON.parse(event.data)); } catch { /* not the cluster's shape */ }
    });
    source.addEventListener("activity", (event) => {
      let change;
      try { change = JSON.parse(event.data); } catch { return; }
      if (Phone.apps.some((a) => a.app && change.topic === a.app.topic && change.deviceId === a.app.deviceId)) Phone.heard({ token: Phone.token });
    });
  },
};
