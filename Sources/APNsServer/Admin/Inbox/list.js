// The inbox's list of notifications.
import { $, $$, api, clock, el, environmentTag, http2Port, refused, say, short, statusText } from "./core.js";
import { Detail } from "./detail.js";
import { Shards } from "./live.js";
import { Route } from "./route.js";

// MARK: Inbox

/// The list is the journal, not a page of it: filters, search and the total run on the server
/// (GET /api/v1/notifications with q, status, outcome...), older rows load as the list scrolls,
/// and live events update the rows on screen or bring the newest in.
export const Inbox = {
  items: [],
  byId: new Map(),
  next: null,
  total: 0,
  selected: null,
  loading: false,
  generation: 0,
  page: 100,
  newer: 0,
  /// The total when the list was last loaded: the newer rows are those above it.
  loadedTotal: 0,

  /// The search, as the query's parameter (none when empty): the widgets are fields of it (Search).
  filter() {
    const q = $("#filters").elements.q.value.trim();
    return q ? [["q", q]] : [];
  },

  query(extra = {}) {
    const params = new URLSearchParams(this.filter());
    for (const [name, value] of Object.entries(extra)) params.set(name, value);
    return `/api/v1/notifications?${params}`;
  },

  /// The first page for the filters, replacing what is shown (`keep`: at least as many rows as now).
  async load(keep) {
    const generation = ++this.generation;
    const limit = keep ? Math.min(Math.max(this.page, this.items.length), 1000) : this.page;
    let page;
    try {
      page = await api("GET", this.query({ limit }));
    } catch (error) {
      say($("#inbox-error"), `The journal did not answer: ${error.message}`, false);
      return;
    }
    if (generation !== this.generation) return;
    say($("#inbox-error"), "", null);
    if (page.shards) Shards.show(page.shards);
    const fresh = new Set(this.items.length ? page.items.filter((i) => !this.byId.has(i.id)).map((i) => i.id) : []);
    this.items = page.items;
    this.byId = new Map(page.items.map((item) => [item.id, item]));
    this.next = page.next;
    this.total = page.total;
    this.loadedTotal = page.total;
    this.newer = 0;
    this.render(fresh);
  },

  /// The next older page, appended (the list scrolled to its end, or "Load older").
  async more() {
    if (!this.next || this.loading) return;
    this.loading = true;
    const generation = this.generation;
    try {
      const page = await api("GET", this.query({ limit: this.page, cursor: this.next }));
      if (generation !== this.generation) return;
      const added = page.items.filter((item) => !this.byId.has(item.id));
      for (const item of added) this.byId.set(item.id, item);
      this.items = this.items.concat(added);
      this.next = page.next;
      this.total = page.total;
      $("#inbox tbody").append(...added.map((item) => this.row(item, false)));
      this.caption();
    } catch (error) {
      say($("#inbox-error"), `Older notifications did not load: ${error.message}`, false);
    } finally {
      this.loading = false;
    }
  },

  /// A live event: a row on screen is updated in place; something new brings the newest page in
  /// when the list is at its top, else a line says how many newer ones wait (the reader keeps
  /// their place).
  heard(item, isNew) {
    if (this.byId.has(item.id)) {
      this.byId.set(item.id, item);
      this.items = this.items.map((known) => (known.id === item.id ? item : known));
      const row = $(`#inbox tbody tr[data-id="${CSS.escape(item.id)}"]`);
      if (row) row.replaceWith(this.row(item, false));
      if (this.selected === item.id) Detail.update(item);
      return;
    }
    if (!isNew) return;
    const wrap = $("#list-pane");
    if (wrap.scrollTop > 40 || window.scrollY > 200) {
      this.countNewer();
      return;
    }
    this.schedule();
  },

  /// How many rows matching the search came since the list was loaded, asked of the journal (an
  /// event is not a row: a push brings several, and a burst may outrun the stream), at most
  /// twice a second; the line saying so stays where the reader is.
  countNewer() {
    if (this.counting) return;
    this.counting = true;
    setTimeout(async () => {
      const generation = this.generation;
      const page = await api("GET", this.query({ limit: 1 })).catch(() => null);
      this.counting = false;
      if (!page || generation !== this.generation) return;
      this.newer = Math.max(0, page.total - this.loadedTotal);
      const banner = $("#inbox-newer");
      banner.hidden = this.newer === 0;
      banner.textContent = `${this.newer} newer — show`;
    }, 500);
  },

  /// Loads the newest at most twice a second, however fast events arrive (a load test).
  schedule() {
    if (this.pending) return;
    this.pending = true;
    setTimeout(() => { this.pending = false; this.load(true); }, 500);
  },

  clear() {
    this.items = [];
    this.byId.clear();
    this.total = 0;
    this.next = null;
    Detail.close(false);
    this.render(new Set());
  },

  caption() {
    const total = $("#inbox-total");
    const filtered = this.filter().length > 0;
    total.textContent = filtered ? `${this.total} match` : `${this.total} notification${this.total === 1 ? "" : "s"}`;
    total.dataset.total = String(this.total);
    $("#inbox-shown").textContent = this.items.length < this.total ? ` · newest ${this.items.length} shown` : "";
    $("#inbox-more").hidden = !this.next;
  },

  render(fresh) {
    $("#inbox tbody").replaceChildren(...this.items.map((item) => this.row(item, fresh.has(item.id))));
    $("#inbox-newer").hidden = true;
    this.caption();
    const filtered = this.filter().length > 0;
    $("#inbox-empty").hidden = this.items.length > 0;
    $("#inbox-empty").textContent = filtered
      ? "Nothing in the journal matches these filters."
      : "";
    if (!filtered && this.items.length === 0) {
      $("#inbox-empty").replaceChildren("Nothing yet. Push to ", el("code", {}, `https://localhost:${http2Port()}/3/device/<token>`), ", or use Send.");
    }
  },

  row(item, fresh) {
    const outcome = item.phoneOutcome || { state: "none", text: "" };
    const status = [el("span", { class: `status ${item.status}` }, statusText(item.status))];
    if (item.source === "local") status.push(el("span", { class: "tag local" }, "local"));
    if (item.source === "webpush") status.push(el("span", { class: "tag local" }, "web push"));
    if (item.fault) status.push(el("span", { class: "tag fault" }, "fault"));
    // The endpoint it was sent to, as the provider chose it: a token of the other build is refused there.
    if (item.environment && item.source !== "webpush") status.push(environmentTag(item.environment));
    const warnings = item.warnings || [];
    const summary = this.summary(item);
    const who = item.source === "broadcast" ? `channel ${short(item.channelId)}` : short(item.token);
    return el("tr", {
      tabindex: 0, "data-id": item.id, "data-testid": "inbox-row", "data-status": item.status, "data-outcome": outcome.state,
      "aria-selected": this.selected === item.id ? "true" : "false",
      class: fresh ? "fresh" : null,
      onclick: () => this.select(item.id),
      onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); this.select(item.id); } },
    },
      el("td", { class: "mono time" }, clock(item.receivedAt).slice(0, 8), el("span", { class: "ms" }, clock(item.receivedAt).slice(8))),
      el("td", { class: "mono who", title: item.token || item.channelId || "" }, who),
      // On a phone the token column folds into the message's cell.
      el("td", { class: "summary", title: summary }, summary, el("span", { class: "who-inline mono" }, who)),
      el("td", { class: "outcome-cell" },
        el("div", {}, status),
        el("div", { class: `outcome ${outcome.state}`, title: outcome.text }, outcome.text)),
      el("td", { class: "extra" }, item.topic || "–"),
      el("td", { class: "extra" }, item.pushType || "–"),
      el("td", { class: "extra" }, item.priority ?? "–"),
      el("td", { class: "extra" }, warnings.length
        ? el("span", { class: "tag warn", title: warnings.join("\n") }, warnings.length === 1 ? warnings[0].split(":")[0] : `${warnings.length} warnings`)
        : "–"));
  },

  /// What a notification says, as a mail client shows a subject: the alert's title and body, what
  /// a silent push or a wake did, or a rejection's reason and detail.
  summary(item) {
    if (refused(item)) return [item.reason, item.detail].filter(Boolean).join(": ") || item.status;
    if (item.source === "broadcast") {
      const reached = item.fanOut ?? 0;
      return item.operation === "publish" ? `broadcast to ${reached} ${reached === 1 ? "activity" : "activities"}` : `channel ${item.operation || "request"}`;
    }
    const presentation = item.presentation;
    if (presentation && presentation.wake) return `${presentation.wake.target}: ${presentation.wake.outcome}`;
    if (presentation && presentation.webPush) {
      const web = presentation.webPush;
      const said = [presentation.title, presentation.body].filter(Boolean).join(": ");
      return said || (web.message ? `web push: ${web.message}` : `web push (${web.outcome})`);
    }
    const aps = item.payload && typeof item.payload === "object" ? item.payload.aps || {} : {};
    if (aps.event) {
      const alert = aps.alert && typeof aps.alert === "object" ? [aps.alert.title, aps.alert.body].filter(Boolean).join(": ") : "";
      return `Live Activity ${aps.event}${aps["attributes-type"] ? ` · ${aps["attributes-type"]}` : ""}${alert ? ` · ${alert}` : ""}`;
    }
    const alert = aps.alert;
    const texts = presentation && (presentation.title || presentation.body)
      ? [presentation.title, presentation.body]
      : typeof alert === "string" ? [alert] : alert && typeof alert === "object" ? [alert.title || alert["title-loc-key"], alert.body || alert["loc-key"]] : [];
    const text = texts.filter(Boolean).join(": ");
    if (text) return text;
    // A badge or a sound alone is for the user too: not silent (the phone sets the icon's badge).
    const noticed = [aps.badge !== undefined ? `badge ${aps.badge}` : "", aps.sound ? `sound ${typeof aps.sound === "string" ? aps.sound : "critical"}` : ""];
    if (noticed.some(Boolean)) return noticed.filter(Boolean).join(" · ");
    return aps["content-available"] === 1 ? "silent (content-available)" : "silent";
  },

  /// Opens a notification's detail; `push`: a person opened it (a history entry), not the URL.
  async select(id, push = true) {
    this.selected = id;
    Route.notification = id;
    Route.write(push);
    for (const row of $$("#inbox tbody tr")) row.setAttribute("aria-selected", row.dataset.id === id ? "true" : "false");
    const item = this.byId.get(id) || (await api("GET", `/api/v1/notifications/${encodeURIComponent(id)}`).catch(() => null));
    if (item && this.selected === id) Detail.show(item);
    else if (!item) say($("#inbox-error"), `No notification ${id} in the journal (the journal keeps the newest; it may have left).`, false);
  },
};
