// The web inbox: every notification live from the admin API's event stream, its detail, the
// phone's rendering of it, load at a glance, and the controls (devices, faults, clock, send,
// reset). Plain JavaScript, no dependencies; everything it shows comes from /api/v1 and /metrics.
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

/// An element with attributes and children (strings become text: nothing is parsed as HTML).
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/// A JSON request to the admin API; throws an Error with the API's own message on failure.
async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["content-type"] = "application/json";
  }
  const response = await fetch(path, options);
  if (response.status === 401) {
    // The emulator asks for its admin token (restarted with another, or the cookie is gone): log in again.
    location.assign("/login?next=" + encodeURIComponent(location.pathname + location.search + location.hash));
  }
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!response.ok) {
    const error = new Error((json && json.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return json;
}

function say(node, text, good) {
  node.textContent = text;
  node.classList.toggle("good", good === true);
  node.classList.toggle("bad", good === false);
}

// A request the provider got no success for: refused, or not processed (above a GOAWAY's last stream).
const refused = (item) => item.status === "rejected" || item.status === "notProcessed";
/// A status as the badge reads it.
const statusText = (status) => (status === "notProcessed" ? "not processed" : status);
const short = (token) => (token && token.length > 12 ? token.slice(0, 8) + "…" : token || "–");
const clock = (iso) => {
  if (!iso) return "–";
  const date = new Date(iso);
  return date.toLocaleTimeString([], { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
};
const http2Port = () => $('meta[name="apns-http2-port"]')?.content || "2197";
// The CA the server certificate chains to, where this emulator keeps it (its --certs-dir).
const caPath = () => $('meta[name="apns-ca-path"]')?.content || "ca.pem";

// MARK: Views and the address

/// The page's state lives in its URL, so that a link can be shared and reloaded:
/// `/?status=rejected`, `/?q=tide`, `/?notification=<uniqueId>`, `/?view=phone&device=<device id>`.
/// (`#phone/<token>`, the older form, still opens that token's device.)
const Route = {
  filters: ["q", "status", "outcome", "interface", "token", "topic"],
  view: "inbox",
  device: null,
  notification: null,

  read() {
    const params = new URLSearchParams(location.search);
    const [hashView, hashArgument] = location.hash.slice(1).split("/");
    this.view = params.get("view") || hashView || "inbox";
    if (!Views.includes(this.view)) this.view = "inbox";
    this.device = params.get("device") || (hashView === "phone" && hashArgument ? decodeURIComponent(hashArgument) : null);
    this.notification = params.get("notification");
    const form = $("#filters");
    for (const name of this.filters) if (form.elements[name]) form.elements[name].value = params.get(name) || "";
  },

  write() {
    const params = new URLSearchParams();
    if (this.view !== "inbox") params.set("view", this.view);
    if (this.view === "phone" && this.device) params.set("device", this.device);
    if (this.view === "inbox") {
      for (const [name, value] of Inbox.filter()) params.set(name, value);
      if (this.notification) params.set("notification", this.notification);
    }
    const query = params.toString();
    const address = query ? `/?${query}` : "/";
    if (location.pathname + location.search + location.hash !== address) history.replaceState(null, "", address);
  },
};

const Views = ["inbox", "phone", "devices", "channels", "faults", "providers", "send", "clock"];

function show(view, argument) {
  for (const button of $$("nav button")) {
    if (button.dataset.view === view) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  for (const section of $$("main > .view")) section.hidden = section.id !== `view-${view}`;
  Route.view = view;
  if (view === "phone" && argument) Route.device = argument;
  Route.write();
  const enter = { phone: () => Phone.open(Route.device), devices: Devices.load, channels: Channels.load, faults: Faults.load, providers: () => Providers.load(), clock: Clock.load, send: Send.prefill };
  enter[view]?.();
}

// MARK: Inbox

/// The list is the journal, not a page of it: filters, search and the total run on the server
/// (GET /api/v1/notifications with q, status, outcome...), older rows load as the list scrolls,
/// and live events update the rows on screen or bring the newest in.
const Inbox = {
  items: [],
  byId: new Map(),
  next: null,
  total: 0,
  selected: null,
  loading: false,
  generation: 0,
  page: 100,
  newer: 0,

  /// The filters set on the form, as query parameters (empty ones left out).
  filter() {
    const form = $("#filters");
    return Route.filters.map((name) => [name, (form.elements[name]?.value || "").trim()]).filter(([, value]) => value);
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
      this.newer += 1;
      const banner = $("#inbox-newer");
      banner.hidden = false;
      banner.textContent = `${this.newer} newer — show`;
      return;
    }
    this.schedule();
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
    Detail.close();
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

  async select(id) {
    this.selected = id;
    Route.notification = id;
    Route.write();
    for (const row of $$("#inbox tbody tr")) row.setAttribute("aria-selected", row.dataset.id === id ? "true" : "false");
    const item = this.byId.get(id) || (await api("GET", `/api/v1/notifications/${encodeURIComponent(id)}`).catch(() => null));
    if (item && this.selected === id) Detail.show(item);
    else if (!item) say($("#inbox-error"), `No notification ${id} in the journal (the journal keeps the newest; it may have left).`, false);
  },
};

// MARK: Detail

/// The detail is a pane beside the list with tabs (summary, payload, headers, answer, timeline,
/// raw, send again); on a phone it is a screen of its own with Back.
const Detail = {
  tab: "summary",
  item: null,

  close() {
    $("#detail").hidden = true;
    $(".split").classList.remove("open");
    document.body.classList.remove("detail-open");
    Inbox.selected = null;
    Route.notification = null;
    Route.write();
    for (const row of $$("#inbox tbody tr")) row.setAttribute("aria-selected", "false");
  },

  /// The request's headers as the provider sent them (the journal keeps each one's value, and
  /// names those it assumed: `assumed`); with `all`, the assumed ones too.
  headers(item, all = false) {
    const assumed = new Set(all ? [] : item.assumed || []);
    return this.allHeaders(item).filter(([name]) => !assumed.has(name));
  },

  /// The headers the provider left out and what the emulator took them to be, as APNs does.
  assumed(item) {
    const why = { "apns-push-type": "what APNs takes a push that names no type for", "apns-priority": "APNs' default",
      "apns-id": "a new one, as APNs answers with", "apns-topic": "the certificate's topic" };
    const values = new Map(this.allHeaders(item));
    return (item.assumed || []).filter((name) => values.has(name)).map((name) => [name, values.get(name), why[name]]);
  },

  allHeaders(item) {
    const headers = [];
    // A channel request names its bundle in the path and sends no apns-topic.
    if (item.topic && item.source !== "broadcast") headers.push(["apns-topic", item.topic]);
    if (item.pushType) headers.push(["apns-push-type", item.pushType]);
    if (item.priority !== null && item.priority !== undefined) headers.push(["apns-priority", String(item.priority)]);
    if (item.expiration !== null && item.expiration !== undefined) headers.push(["apns-expiration", String(item.expiration)]);
    if (item.collapseId) headers.push(["apns-collapse-id", item.collapseId]);
    if (item.apnsId) headers.push(["apns-id", item.apnsId]);
    if (item.channelId) headers.push(["apns-channel-id", item.channelId]);
    if (item.requestId) headers.push(["apns-request-id", item.requestId]);
    return headers;
  },

  payloadText(item) {
    if (item.payload !== null && item.payload !== undefined) return JSON.stringify(item.payload, null, 2);
    return item.body ?? "";
  },

  curl(item) {
    const quote = (text) => "'" + String(text).replaceAll("'", "'\\''") + "'";
    const body = item.payload !== null && item.payload !== undefined ? JSON.stringify(item.payload) : item.body ?? "";
    const lines = [`curl --http2 --cacert ${quote(caPath())}`];
    if (item.method && item.method !== "POST") lines.push(`-X ${item.method}`);
    for (const [name, value] of this.headers(item)) if (name !== "apns-id") lines.push(`-H ${quote(`${name}: ${value}`)}`);
    if (body) lines.push(`-d ${quote(body)}`);
    lines.push(`https://localhost:${http2Port()}${item.source === "broadcast" ? item.path : `/3/device/${item.token}`}`);
    return lines.join(" \\\n  ");
  },

  /// The payload as `xcrun simctl push` reads it, with the topic as its target bundle; a refused
  /// request's body as it was sent (parsed when it is JSON; as text when it is not, which is what
  /// the provider sent and why it was refused).
  apnsFile(item) {
    let sent = item.payload;
    if ((sent === null || sent === undefined) && item.body) {
      try { sent = JSON.parse(item.body); } catch { return item.body; }
    }
    if (sent === null || sent === undefined) return "{}";
    if (typeof sent !== "object" || Array.isArray(sent)) return JSON.stringify(sent, null, 2);
    const payload = { ...sent };
    if (item.topic) payload["Simulator Target Bundle"] = item.topic;
    return JSON.stringify(payload, null, 2);
  },

  /// A long text folded to its first lines, with a button that shows the rest.
  folded(text, attributes = {}) {
    const limit = 1200;
    if (text.length <= limit) return el("pre", attributes, text);
    const pre = el("pre", { ...attributes, class: "folded" }, text.slice(0, limit) + "…");
    const button = el("button", { type: "button", class: "secondary unfold" }, `Show all (${(text.length / 1024).toFixed(1)} KB)`);
    button.addEventListener("click", () => { pre.textContent = text; pre.classList.remove("folded"); button.remove(); });
    return el("div", {}, pre, button);
  },

  timeline(item) {
    const steps = [el("li", {}, `received ${clock(item.receivedAt)} over ${item.source}`)];
    if (refused(item)) {
      steps.push(el("li", {}, `${item.status}: ${item.httpStatus ?? ""} ${item.reason ?? ""}${item.statusByte !== null && item.statusByte !== undefined ? ` (status byte ${item.statusByte})` : ""}`));
    } else {
      steps.push(el("li", {}, "committed to the store, answered 200"));
      if (item.presentation) steps.push(el("li", {}, `presented: ${item.presentation.shown ? `shown as ${item.presentation.style}` : "not shown"}`));
      if (item.status !== "queued") steps.push(el("li", {}, `${item.status} ${clock(item.statusAt)}`));
      if (item.response) steps.push(el("li", {}, `responded: ${item.response.action}${item.response.text ? ` “${item.response.text}”` : ""}`));
    }
    return el("ol", {}, steps);
  },

  pairs(list) {
    return el("dl", {}, list.flatMap(([name, value]) => [el("dt", {}, name), el("dd", { class: "mono" }, value ?? "–")]));
  },

  answer(item) {
    return refused(item)
      ? [["status", item.httpStatus ?? "–"], ["reason", item.reason ?? "–"], ["status byte", item.statusByte ?? "–"], ["detail", item.detail ?? "–"], ["port", item.port ?? "–"]]
      : item.source === "broadcast"
        ? [["status", item.httpStatus], ["apns-request-id", item.requestId], ["apns-channel-id", item.channelId ?? "–"], ["apns-unique-id", item.uniqueId ?? "–"], ["fan-out", item.fanOut ?? "–"]]
        : [["status", item.source === "webpush" ? 201 : 200], ["apns-id", item.apnsId], ["apns-unique-id", item.uniqueId ?? "–"]];
  },

  /// Each tab's content, made when it is opened.
  tabs: {
    summary(item) {
      const outcome = item.phoneOutcome || { state: "none", text: "–" };
      // The phone view finds the device a token belongs to.
      const phone = item.token
        ? el("a", { href: `/?view=phone&device=${encodeURIComponent(item.token)}`, id: "detail-phone-link", onclick: (event) => { event.preventDefault(); show("phone", item.token); } }, "Open on the device's phone")
        : null;
      return [
        el("p", { class: `outcome big ${outcome.state}`, id: "detail-outcome" }, el("span", { class: `status ${item.status}` }, statusText(item.status)), " ", outcome.text),
        el("p", { class: "said" }, Inbox.summary(item)),
        Detail.pairs([["token", item.token], ["topic", item.topic ?? "–"], ["interface", item.source], ["type", item.pushType ?? "–"], ["priority", item.priority ?? "–"], ["received", item.receivedAt], ["status since", item.statusAt ?? "–"]]),
        phone,
        item.warnings && item.warnings.length ? [el("h3", {}, "Warnings"), el("ul", { class: "warnings" }, item.warnings.map((w) => el("li", {}, w)))] : null,
        item.fault ? [el("h3", {}, "Fault"), Detail.pairs([["rule", item.fault.id], ["action", item.fault.action]])] : null,
      ];
    },
    payload(item) {
      return [Detail.folded(Detail.payloadText(item), { id: "detail-payload" })];
    },
    headers(item) {
      const assumed = Detail.assumed(item);
      return [el("pre", { id: "detail-headers" }, Detail.headers(item).map(([n, v]) => `${n}: ${v}`).join("\n") || "(none sent)"),
        assumed.length ? el("div", { class: "assumed", "data-testid": "detail-assumed" },
          el("p", {}, "Not sent; the emulator assumed, as APNs does:"),
          el("ul", {}, ...assumed.map(([name, value, why]) => el("li", {}, el("code", {}, `${name}: ${value}`), ` (${why})`)))) : null];
    },
    answer(item) {
      return [Detail.pairs(Detail.answer(item))];
    },
    timeline(item) {
      const logged = !refused(item) && item.source !== "broadcast";
      const parts = [logged ? el("ol", { id: "detail-delivery-log", class: "delivery-log" }, el("li", {}, "loading…")) : Detail.timeline(item)];
      if (item.source === "broadcast" && item.fanOut) parts.push(el("h3", {}, "Fan-out"), el("ul", { id: "detail-fanout" }, el("li", {}, "loading…")));
      if (item.presentation) parts.push(el("h3", {}, "Presentation"), Detail.folded(JSON.stringify(item.presentation, null, 2)));
      if (item.activity) parts.push(el("h3", {}, "Live Activity"), el("pre", {}, JSON.stringify(item.activity, null, 2)));
      if (logged) Detail.deliveryLog(item);
      if (item.source === "broadcast" && item.fanOut) Detail.fanOut(item.id);
      return parts;
    },
    raw(item) {
      return [Detail.folded(JSON.stringify(item, null, 2), { id: "detail-raw" })];
    },
    again(item) {
      const apns = Detail.apnsFile(item);
      if (Detail.url) URL.revokeObjectURL(Detail.url);
      Detail.url = URL.createObjectURL(new Blob([apns], { type: "application/json" }));
      const answer = el("pre", { class: "answer", id: "detail-again-answer", role: "status" });
      const canSend = item.source !== "broadcast" && item.source !== "webpush" && item.token;
      const button = canSend ? el("button", { type: "button", id: "detail-send-again", onclick: () => Detail.sendAgain(item, answer) }, "Send again") : null;
      return [
        button, answer,
        el("h3", {}, "Reproduce with curl"), el("pre", { id: "detail-curl" }, Detail.curl(item)),
        el("h3", {}, ".apns file (xcrun simctl push)"), el("pre", { id: "detail-apns" }, apns), el("a", { href: Detail.url, download: `${item.id}.apns` }, "Download .apns"),
      ];
    },
  },

  names: [["summary", "Summary"], ["payload", "Payload"], ["headers", "Headers"], ["answer", "Answer"], ["timeline", "Timeline"], ["raw", "Raw"], ["again", "Send again"]],

  show(item) {
    this.item = item;
    const detail = $("#detail");
    const tabs = el("div", { class: "tabs", role: "tablist", "aria-label": "Notification detail" },
      this.names.map(([id, name]) => el("button", {
        type: "button", role: "tab", class: "tab", id: `tab-${id}`, "data-tab": id, "aria-selected": this.tab === id ? "true" : "false",
        onclick: () => { this.tab = id; this.show(this.item); },
      }, name)));
    const content = this.tabs[this.tab](item);
    detail.replaceChildren(
      el("div", { class: "detail-head" },
        el("button", { type: "button", class: "secondary back", id: "detail-back", onclick: () => this.close() }, "‹ Back"),
        el("h2", {}, "Notification ", el("span", { class: "mono" }, short(item.id))),
        el("button", { type: "button", class: "secondary close", onclick: () => this.close() }, "Close")),
      tabs,
      el("div", { class: "tab-panel", role: "tabpanel", id: "detail-panel" }, ...content.flat(2).filter((part) => part !== null && part !== undefined)));
    detail.hidden = false;
    $(".split").classList.add("open");
    document.body.classList.add("detail-open");
    detail.scrollTop = 0;
    if (matchMedia("(max-width: 999px)").matches) window.scrollTo(0, 0);
  },

  /// A row on screen changed (delivered, presented): the open tab follows, unless it is one a
  /// person may be reading or typing in.
  update(item) {
    if (this.tab === "again" || this.tab === "raw") { this.item = item; return; }
    this.show(item);
  },

  async sendAgain(item, answer) {
    const body = { token: item.token, payload: item.payload ?? item.body ?? {} };
    if (item.topic) body.topic = item.topic;
    if (item.pushType) body.pushType = item.pushType;
    if (item.priority) body.priority = item.priority;
    if (item.collapseId) body.collapseId = item.collapseId;
    try {
      const result = await api("POST", "/api/v1/push", body);
      say(answer, Send.describe(result), result.status === 200);
    } catch (error) {
      say(answer, error.message, false);
    }
  },

  /// The delivery log in the Push Notifications Console's words, as a timeline.
  async deliveryLog(item) {
    const log = await api("GET", `/api/v1/notifications/${item.id}/delivery-log`).catch(() => null);
    const list = $("#detail-delivery-log");
    if (!list) return;
    if (!log) {
      list.replaceChildren(this.timeline(item));
      return;
    }
    list.replaceChildren(...log.events.map((step) => el("li", {},
      el("strong", {}, step.event), " ", el("time", { datetime: step.at }, clock(step.at)), el("div", { class: "muted" }, step.detail))));
  },

  /// What each subscribed activity made of a broadcast (the list's items leave it out).
  async fanOut(id) {
    const full = await api("GET", `/api/v1/notifications/${id}`).catch(() => null);
    const list = $("#detail-fanout");
    if (!list || !full) return;
    list.replaceChildren(...(full.outcomes || []).map((o) => el("li", { class: "mono" },
      `${o.deviceId} · ${short(o.activityId)}: ${o.outcome}${o.code ? ` (${o.code})` : ""}${o.reason ? ` — ${o.reason}` : ""}`)));
  },
};

// MARK: Shards

// On a shard of a cluster (serve --cluster-peers) the lists and events are every shard's: the
// header says how many answered, and names the ones that did not.
const Shards = {
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

const Live = {
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

// MARK: Web apps

const WebApps = {
  /// The tokens of the web apps on screen: their pushes refresh the phone.
  tokens: new Set(),

  /// The device's web apps (Safari pages, Home Screen web apps) with their subscriptions, and
  /// each one's latest web pushes as the browser opened them: the decrypted message, who sent it
  /// (the VAPID subject), what was shown; a push the service worker got can be shown from here.
  async show(tokens, device) {
    const area = $("#web-apps");
    const lists = await Promise.all(tokens.map((token) =>
      api("GET", `/api/v1/devices/${token}/web-apps`).then((apps) => apps.map((app) => [token, app])).catch(() => [])));
    const apps = lists.flat();
    const pushes = await Promise.all(apps.map(([, app]) =>
      api("GET", `/api/v1/notifications?token=${app.token}&interface=webpush&limit=10`).catch(() => ({ items: [] }))));
    if (device !== Phone.device) return;
    this.tokens = new Set(apps.map(([, app]) => app.token));
    area.hidden = apps.length === 0;
    area.replaceChildren(el("h2", {}, "Web apps"), ...apps.map(([token, app], index) => this.card(token, app, pushes[index].items || [])));
  },

  card(token, app, items) {
    const state = app.subscribed ? `subscribed · permission ${app.permission}` : `unsubscribed: ${app.unsubscribedBecause || ""}`;
    const list = items.length
      ? el("ol", { class: "web-pushes" }, ...items.map((item) => this.push(item)))
      : el("p", { class: "empty" }, "No web pushes yet");
    const form = el("form", { class: "show", "data-web-app": app.id },
      el("input", { name: "title", placeholder: "showNotification title", autocomplete: "off", "aria-label": "Notification title" }),
      el("button", { type: "submit" }, "Show"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const title = form.elements.title.value.trim();
      if (!title) return;
      try {
        await api("POST", `/api/v1/devices/${token}/web-apps/${app.id}/show`, { title });
        form.elements.title.value = "";
        await Phone.refresh();
      } catch (error) {
        form.append(el("span", { class: "bad" }, String(error.message || error)));
      }
    });
    return el("article", { class: `web-app${app.subscribed ? "" : " ended"}`, "data-web-app": app.id },
      el("header", {}, el("strong", {}, app.origin), el("span", { class: "kind" }, app.kind === "safari" ? "Safari" : "Home Screen")),
      el("div", { class: "meta" }, state, app.awaitingShow?.length ? ` · ${app.awaitingShow.length} awaiting a notification` : ""),
      el("code", { class: "endpoint", title: "the subscription's endpoint" }, app.subscription.endpoint),
      list,
      app.subscribed && app.permission === "granted" ? form : null);
  },

  push(item) {
    const p = item.presentation || {};
    const web = p.webPush || {};
    const said = p.shown ? [p.title, p.body].filter(Boolean).join(": ") : web.detail || "";
    return el("li", { class: `web-push ${web.outcome || "pending"}`, "data-id": item.uniqueId || item.id },
      el("div", {}, el("span", { class: "outcome" }, web.outcome || item.status), " ", clock(item.receivedAt)),
      web.vapidSubject ? el("div", { class: "sub" }, `from ${web.vapidSubject}`) : null,
      web.message !== undefined && web.message !== null ? el("pre", { class: "message" }, web.message) : null,
      said ? el("div", { class: "said" }, said) : null,
      web.navigate ? el("div", { class: "meta" }, `opens ${web.navigate}`) : null);
  },
};

// MARK: Live Activities

const Activities = {
  /// The app's Live Activities on the Lock Screen (running first, by relevance), the most
  /// relevant running one in the Dynamic Island, and each one's timeline with why a push was ignored.
  async show(apps, device) {
    const area = $("#phone-activities");
    const island = $("#island");
    const lists = await Promise.all(apps.map(({ token }) =>
      api("GET", `/api/v1/devices/${token}/activities`).catch(() => ({ items: [] }))));
    if (device !== Phone.device) return;
    const running = (a) => a.activityState === "active" || a.activityState === "stale";
    const all = lists.flatMap((list) => list.items || []).sort((a, b) => Number(running(b)) - Number(running(a)) || (b.relevanceScore || 0) - (a.relevanceScore || 0));
    // Running and ended ones are on the Lock Screen; the three latest dismissed stay in view, faded, for their history.
    const items = all.filter((a) => a.activityState !== "dismissed").concat(all.filter((a) => a.activityState === "dismissed").slice(0, 3));
    area.replaceChildren(...items.map((a) => this.card(a)));
    const top = all.find(running);
    island.hidden = !top;
    if (top) island.replaceChildren(...this.compact(top));
    this.surfaces(top);
  },

  /// The most relevant running activity on each paired surface, in the size class the server
  /// chose (`small` where its type declares it, else the compact views); a surface that does not
  /// show it says why.
  surfaces(activity) {
    const area = $("#surfaces");
    const surfaces = activity?.surfaces || [];
    area.hidden = surfaces.length === 0;
    const names = { watch: "Apple Watch · Smart Stack", carPlay: "CarPlay · Home Screen", macMenuBar: "Mac · menu bar" };
    area.replaceChildren(...surfaces.map((s) => el("figure", {
      class: `surface ${s.surface} family-${s.family}${s.shown ? "" : " off"}`, "data-surface": s.surface, "data-family": s.family,
    },
    el("figcaption", {}, `${names[s.surface] || s.surface} (${s.family})`),
    s.shown ? this.drawn(activity, s.family) : el("p", { class: "why" }, s.reason || "not shown"))));
  },

  /// An activity drawn in a size class from its content state: `small`, its name and the first
  /// two fields; `compact`, the leading and trailing views. Text that does not fit ends in "…".
  drawn(activity, family) {
    if (family === "compact") return el("div", { class: "screen compact" }, ...this.compact(activity));
    const fields = this.fields(activity.contentState).slice(0, 2);
    return el("div", { class: `screen ${family}` },
      el("strong", { class: "fit" }, this.title(activity)),
      ...fields.map(([key, value]) => el("span", { class: "field" }, el("small", {}, this.words(key)), this.value(key, value))));
  },

  /// `orderNumber` as `order number`.
  words(key) {
    return String(key).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  },

  /// A value as the app would draw it: a date as the time of day and the time left (or gone),
  /// on the emulator's clock; lists joined; anything else as text.
  value(key, value) {
    const now = Phone.now || Date.now();
    let date = null;
    if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) date = new Date(value);
    else if (typeof value === "number" && /(date|time|eta|at|until|deadline|start|end)$/i.test(key) && value > 1e9) date = new Date(value > 1e11 ? value : value * 1000);
    if (date && !Number.isNaN(date.getTime())) {
      const minutes = Math.round((date.getTime() - now) / 60000);
      const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
      const left = Math.abs(minutes) >= 90 ? `${Math.round(Math.abs(minutes) / 60)} h` : `${Math.abs(minutes)} min`;
      return minutes === 0 ? `${time} (now)` : minutes > 0 ? `${time} (in ${left})` : `${time} (${left} ago)`;
    }
    if (Array.isArray(value)) return value.map((v) => this.value(key, v)).join(", ");
    if (value !== null && typeof value === "object") return Object.values(value).map((v) => this.value(key, v)).join(" · ");
    return String(value);
  },

  /// The content state's fields in their order by name.
  fields(state) {
    return Object.entries(state && typeof state === "object" ? state : {}).sort(([a], [b]) => a.localeCompare(b));
  },

  /// The activity's name and what it is about: its type and its attributes' values
  /// (`Delivery · 1042`), not type and field names.
  title(activity) {
    const values = Object.entries(activity.attributes || {}).map(([key, value]) => this.value(key, value)).filter((v) => v !== "");
    // ActivityKit's types are named `<Name>Attributes`: the person sees the name.
    return [String(activity.type).replace(/(.)Attributes$/, "$1"), ...values].join(" · ");
  },

  /// The content state's fields as the card's rows.
  rows(state) {
    return this.fields(state).map(([key, value]) => [el("dt", {}, this.words(key)), el("dd", {}, this.value(key, value))]);
  },

  /// Compact leading (the activity's name) and trailing (the first content-state value) views.
  compact(activity) {
    const [first] = this.fields(activity.contentState);
    const trailing = first ? this.value(first[0], first[1]) : "";
    return [el("span", { class: "leading", title: this.title(activity) }, String(activity.type).replace(/(.)Attributes$/, "$1")), el("span", { class: "trailing", title: trailing }, trailing)];
  },

  card(activity) {
    const timeline = el("ol", {}, ...(activity.history || []).map((h) =>
      el("li", { class: h.outcome.replace(" ", "-") }, `${clock(h.at)} ${h.event}: ${h.outcome}${h.reason ? ` (${h.reason})` : ""}`)));
    const alert = activity.alert ? el("div", { class: "alert" }, `${activity.alert.title || ""} ${activity.alert.body || ""}`.trim()) : null;
    return el("article", { class: `activity ${activity.activityState}`, "data-activity": activity.id },
      el("header", {}, el("span", { class: "fit", title: this.title(activity) }, this.title(activity)), el("span", { class: "state" }, activity.activityState)),
      el("dl", {}, ...this.rows(activity.contentState).flat()),
      alert,
      el("details", {}, el("summary", {}, `Timeline (${(activity.history || []).length})`), timeline));
  },
};

// MARK: Load chart (from /metrics)

const Load = {
  previous: null,
  points: [],
  size: 120,

  parse(text) {
    const totals = { accepted: 0, rejected: 0, sum: 0, count: 0, buckets: new Map() };
    for (const line of text.split("\n")) {
      if (!line || line.startsWith("#")) continue;
      const match = /^([a-z_]+)(\{[^}]*\})?\s+(\S+)/.exec(line);
      if (!match) continue;
      const [, name, labels = "", raw] = match;
      const value = Number(raw);
      if (!Number.isFinite(value)) continue;
      if (name === "apns_notifications_accepted_total") totals.accepted += value;
      else if (name === "apns_notifications_rejected_total") totals.rejected += value;
      else if (name === "apns_accept_latency_seconds_sum") totals.sum += value;
      else if (name === "apns_accept_latency_seconds_count") totals.count += value;
      else if (name === "apns_accept_latency_seconds_bucket") {
        const le = /le="([^"]+)"/.exec(labels)?.[1];
        if (le) totals.buckets.set(le, (totals.buckets.get(le) || 0) + value);
      }
    }
    return totals;
  },

  async tick() {
    let text;
    try {
      const response = await fetch("/metrics");
      text = await response.text();
    } catch {
      return;
    }
    const now = performance.now();
    const totals = this.parse(text);
    const previous = this.previous;
    this.previous = { at: now, totals };
    if (!previous) return;
    const seconds = Math.max((now - previous.at) / 1000, 0.001);
    // Counters only grow, unless a reset zeroed them: then the new value is the change.
    const delta = (a, b) => (a >= b ? a - b : a);
    const count = delta(totals.count, previous.totals.count);
    const point = {
      accepted: delta(totals.accepted, previous.totals.accepted) / seconds,
      rejected: delta(totals.rejected, previous.totals.rejected) / seconds,
      mean: count > 0 ? delta(totals.sum, previous.totals.sum) / count : null,
      p99: null,
    };
    if (count > 0) {
      const bounds = Array.from(totals.buckets.keys()).sort((a, b) => (a === "+Inf" ? 1 : b === "+Inf" ? -1 : Number(a) - Number(b)));
      for (const le of bounds) {
        if (delta(totals.buckets.get(le), previous.totals.buckets.get(le) || 0) >= 0.99 * count) {
          point.p99 = le === "+Inf" ? null : Number(le);
          break;
        }
      }
    }
    this.points.push(point);
    if (this.points.length > this.size) this.points.shift();
    // Idle (nothing accepted or rejected for 30 s): the charts fold away, a line says so.
    const idle = this.points.slice(-30).every((p) => p.accepted === 0 && p.rejected === 0);
    $(".load").classList.toggle("idle", idle);
    $("#load-idle").hidden = !idle;
    $("#rate-accepted").textContent = point.accepted.toFixed(0);
    $("#rate-rejected").textContent = point.rejected.toFixed(0);
    const ms = (seconds) => (seconds === null ? "–" : `${(seconds * 1000).toFixed(seconds < 0.001 ? 2 : 1)} ms`);
    $("#latency-mean").textContent = ms(point.mean);
    $("#latency-p99").textContent = point.p99 === null ? "–" : `≤ ${ms(point.p99)}`;
    this.draw($("#rate-chart"), [["accepted", "--accepted"], ["rejected", "--rejected"]]);
    this.draw($("#latency-chart"), [["mean", "--accent"], ["p99", "--warn"]]);
  },

  draw(canvas, series) {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || 480;
    const height = canvas.clientHeight || 110;
    if (canvas.width !== Math.round(width * ratio)) canvas.width = Math.round(width * ratio);
    if (canvas.height !== Math.round(height * ratio)) canvas.height = Math.round(height * ratio);
    const context = canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    const style = getComputedStyle(document.documentElement);
    let top = 0;
    for (const [key] of series) for (const point of this.points) if (point[key] !== null) top = Math.max(top, point[key]);
    top = top > 0 ? top * 1.15 : 1;
    context.strokeStyle = style.getPropertyValue("--line");
    context.lineWidth = 1;
    context.beginPath();
    context.moveTo(0, height - 0.5);
    context.lineTo(width, height - 0.5);
    context.stroke();
    const step = width / (this.size - 1);
    const offset = this.size - this.points.length;
    for (const [key, color] of series) {
      context.strokeStyle = style.getPropertyValue(color).trim();
      context.lineWidth = 2;
      context.beginPath();
      let drawing = false;
      this.points.forEach((point, index) => {
        if (point[key] === null) { drawing = false; return; }
        const x = (offset + index) * step;
        const y = height - 2 - (point[key] / top) * (height - 8);
        if (drawing) context.lineTo(x, y); else context.moveTo(x, y);
        drawing = true;
      });
      context.stroke();
    }
  },

  start() {
    this.tick();
    setInterval(() => this.tick(), 1000);
  },
};

// MARK: Phone

const Phone = {
  /// The device on screen: its id, or a token no device holds (its own entry).
  device: null,
  /// The device's apps: each token it holds with its app settings (`{token, topic, app}`).
  apps: [],
  held: [],
  /// The app whose settings the form edits.
  token: null,
  app: null,
  now: null,
  expanded: new Set(),

  /// The devices the emulator knows, one entry each: a device id with its tokens, or a token no
  /// device holds, labelled so.
  async devices() {
    let records = [];
    try { records = await api("GET", "/api/v1/devices"); } catch { records = []; }
    const devices = new Map();
    for (const record of records.filter((r) => !r.unregisteredAt)) {
      // A token no device holds stands for its own phone; the Live Activity tokens and web apps of
      // its app name it as `token:<hex>`.
      const held = record.deviceId && !record.deviceId.startsWith("token:");
      const key = held ? record.deviceId : record.deviceId ? record.deviceId.slice("token:".length) : record.token;
      if (!devices.has(key)) devices.set(key, { id: key, isDevice: held, tokens: [] });
      devices.get(key).tokens.push(record);
    }
    // A token's own entry first, then what it issued (Live Activity tokens, web apps).
    for (const device of devices.values()) device.tokens.sort((a, b) => Number(b.token === device.id) - Number(a.token === device.id));
    return devices;
  },

  /// Why what a device was sent waits, and what brings it: an offline power state, or no device attached.
  async whyWaiting(device, tokens) {
    // The power state is the device's: asked through a token it registered (a web app's token
    // was registered without one, and has none).
    const own = tokens.filter((t) => t.deviceId === device && !/^https?:/.test(t.topic || ""));
    const first = (own[0] || tokens[0])?.token;
    let power = null;
    let asked = first;
    for (const { token } of this.known?.get(device)?.isDevice ? own : []) {
      power = await api("GET", `/api/v1/devices/${token}/power`).catch(() => null);
      asked = token;
      if (power) break;
    }
    if (power && !power.online) return `it is offline; PUT /api/v1/devices/${asked}/power {"online": true} brings it back`;
    if (tokens.some((t) => t.phone)) return "its power state holds these priorities until it is woken (a priority-10 push, Low Power Mode off, or unlocked)";
    if (this.known?.get(device)?.isDevice) return `it is not connected; start apns-emulator device --device-id ${device} --token ${first} to attach it`;
    return "no device holds this token; save the app's settings on the right for this phone to show its pushes, or register it from apns-emulator device";
  },

  /// How many apps a device's tokens stand for (a Live Activity token is its app's).
  appCount(device) {
    const apps = new Set(device.tokens.map((t) => (t.topic || t.token).replace(/\.push-type\.[a-z]+$/, "")));
    return `${apps.size} app${apps.size === 1 ? "" : "s"}`;
  },

  /// Opens a device's phone: `device` is a device id or a token (the token's device is found).
  async open(device) {
    const devices = await this.devices();
    let chosen = device || this.device;
    if (chosen && !devices.has(chosen)) {
      const owner = [...devices.values()].find((d) => d.tokens.some((t) => t.token === chosen));
      if (owner) chosen = owner.id;
      else if (/^[0-9a-fA-F]{16,}$/.test(chosen)) devices.set(chosen, { id: chosen, isDevice: false, tokens: [{ token: chosen.toLowerCase(), topic: null, queued: 0 }] });
    }
    if (!chosen || !devices.has(chosen)) chosen = devices.keys().next().value || null;
    if (chosen !== this.device) { this.token = null; this.expanded.clear(); }
    this.device = chosen;
    this.known = devices;
    const select = $("#phone-device");
    const sorted = [...devices.values()].sort((a, b) => Number(b.isDevice) - Number(a.isDevice) || a.id.localeCompare(b.id));
    select.replaceChildren(...sorted.map((d) => el("option", { value: d.id },
      d.isDevice
        ? `${d.id} · ${Phone.appCount(d)}${d.tokens.some((t) => t.connected) ? " (connected)" : ""}`
        : `token ${short(d.id)}${d.tokens[0].topic ? ` ${d.tokens[0].topic}` : ""} (no device)`)));
    if (this.device) select.value = this.device;
    if (Route.device !== this.device) { Route.device = this.device; Route.write(); }
    await this.refresh();
  },

  async refresh() {
    const screen = $("#phone-screen");
    if (!this.device || $("#view-phone").hidden) {
      if (!this.device) screen.replaceChildren(el("p", { class: "empty" }, "No devices yet: register one (POST /api/v1/devices, or apns-emulator device), or push to a token."));
      return;
    }
    const device = this.device;
    const tokens = (this.known?.get(device)?.tokens) || [];
    const held = await Promise.all(tokens.map(async (record) => ({
      token: record.token, topic: record.topic, queued: record.queued || 0,
      app: await api("GET", `/api/v1/devices/${record.token}/app`).catch(() => null),
    })));
    // Every token the device's apps hold brings its history (a Live Activity's pushes come on its
    // own tokens); each app is listed once, by the token it registered.
    const histories = await Promise.all(held.map(({ token }) =>
      api("GET", `/api/v1/notifications?token=${token}&limit=100`).catch(() => ({ items: [] }))));
    // What waits for the device: queued and not yet presented (a web app's push is presented as
    // it is accepted, though it stays in its queue), counted by the journal over all it holds.
    const waits = await Promise.all(held.map(({ token }) =>
      api("GET", `/api/v1/notifications?token=${token}&outcome=waiting&limit=1`).then((page) => page.total).catch(() => 0)));
    held.forEach((entry, index) => { entry.queued = waits[index]; });
    const apps = [];
    for (const entry of held) {
      const topic = entry.app?.topic || entry.topic;
      const same = apps.find((a) => (a.app?.topic || a.topic) === topic);
      if (same) same.queued += entry.queued; else apps.push({ ...entry });
    }
    const centers = await Promise.all(apps.map(({ token, app }) =>
      app ? api("GET", `/api/v1/devices/${token}/delivered`).catch(() => ({ items: [] })) : { items: [] }));
    const now = await api("GET", "/api/v1/clock").catch(() => null);
    if (device !== this.device) return;
    this.apps = apps;
    this.held = held;
    if (!this.token || !apps.some((a) => a.token === this.token)) this.token = (apps.find((a) => a.app) || apps[0])?.token || null;
    this.app = apps.find((a) => a.token === this.token)?.app || null;
    const timeZone = apps.find((a) => a.app?.timeZone)?.app.timeZone;
    // The phone shows the emulator's time (which tests may have moved), in the phone's time zone.
    if (now) {
      this.now = new Date(now.now).getTime();
      const options = { hour: "2-digit", minute: "2-digit", hour12: false };
      try {
        $("#phone-time").textContent = new Date(now.now).toLocaleTimeString([], { ...options, timeZone: timeZone || undefined });
      } catch {
        $("#phone-time").textContent = new Date(now.now).toLocaleTimeString([], options);
      }
    }
    $("#phone-app").textContent = this.known?.get(device)?.isDevice ? device : "no device";
    this.pickApp(apps);
    this.fill(this.app);
    await Activities.show(apps.filter((a) => a.app), device);
    await WebApps.show(apps.map((a) => a.token), device);
    const onScreen = new Set(centers.flatMap((center) => (center.items || []).map((entry) => entry.uniqueId)));
    const waiting = apps.reduce((sum, a) => sum + a.queued, 0);
    const appTopic = (topic) => (topic || "").replace(/\.push-type\.[a-z]+$/, "");
    const items = histories.flatMap((history, index) => (history.items || []).filter((item) => item.presentation || Phone.alerting(item))
      .map((item) => ({ item, topic: held[index].app?.topic || appTopic(held[index].topic || item.topic) })));
    items.sort((a, b) => (a.item.receivedAt < b.item.receivedAt ? 1 : -1));
    const parts = [];
    // The Home Screen's icons, each with its badge as the last push (or the app) set it.
    const icons = apps.filter((a) => a.app).map((a) => el("span", { class: "app-icon", "data-testid": "app-icon", title: a.app.topic || a.topic },
      el("span", { class: "name" }, appTopic(a.app.topic || a.topic).split(".").pop()),
      a.app.badge > 0 ? el("span", { class: "badge", "data-testid": "app-badge" }, String(a.app.badge)) : null));
    if (icons.length) parts.push(el("div", { class: "app-icons" }, ...icons));
    if (waiting) parts.push(el("p", { class: "waiting", "data-testid": "phone-waiting" }, `${waiting} waiting for the device: ${await this.whyWaiting(device, tokens)}`));
    if (!apps.some((a) => a.app)) {
      parts.push(el("p", { class: "empty" }, "No app on this device has settings yet: save them on the right, then push."));
    } else if (!items.length) {
      parts.push(el("p", { class: "empty" }, waiting ? "Nothing presented yet: the device has not taken its notifications." : "No notifications"));
    } else {
      parts.push(...this.center(items, onScreen));
    }
    screen.replaceChildren(...parts);
  },

  /// A Live Activity push that belongs among the notifications: one with an alert (it lit the
  /// screen), or a start the phone refused (the person would have expected an activity).
  alerting(item) {
    if (!item.activity) return false;
    const aps = item.payload?.aps || {};
    return !!aps.alert || (item.activity.event === "start" && item.activity.outcome === "not started");
  },

  /// The device's apps in the settings form's picker: each token it holds, by its topic.
  pickApp(apps) {
    const select = $("#phone-app-pick");
    select.replaceChildren(...apps.map((a) => el("option", { value: a.token }, `${a.topic || a.app?.topic || "?"} · ${short(a.token)}`)));
    if (this.token) select.value = this.token;
    select.closest("label").hidden = apps.length < 2;
  },

  /// Notification Center as iOS stacks it: by app, then by thread (`thread-id`), newest first;
  /// each stack shows its newest three and a count, the rest on demand.
  center(items, onScreen) {
    const byApp = new Map();
    for (const entry of items) {
      const presentation = entry.item.presentation || {};
      const app = presentation.webPush ? presentation.webPush.origin : entry.topic || "";
      const thread = presentation.threadId || "";
      const key = `${app}\u0000${thread}`;
      if (!byApp.has(key)) byApp.set(key, { app, thread, items: [] });
      byApp.get(key).items.push(entry.item);
    }
    return [...byApp.values()].map((group) => {
      const key = `${group.app}|${group.thread}`;
      const open = this.expanded.has(key);
      const shown = open ? group.items : group.items.slice(0, 3);
      const more = group.items.length - shown.length;
      return el("section", { class: "stack-group", "aria-label": `${group.app}${group.thread ? `, thread ${group.thread}` : ""}` },
        el("header", { class: "stack-head" },
          el("span", { class: "fit" }, group.app, group.thread ? el("small", {}, ` · ${group.thread}`) : null),
          el("span", { class: "count" }, `${group.items.length}`)),
        ...shown.map((item) => this.bubble(item, onScreen.has(item.uniqueId))),
        more > 0 ? el("button", { type: "button", class: "secondary more", onclick: () => { this.expanded.add(key); this.refresh(); } }, `${more} more`) : null,
        open && group.items.length > 3 ? el("button", { type: "button", class: "secondary more", onclick: () => { this.expanded.delete(key); this.refresh(); } }, "Show less") : null);
    });
  },

  /// An event for one of the device's tokens, or one of its web apps, refreshes the phone.
  heard(item) {
    const mine = this.held.some((a) => a.token === item.token) || WebApps.tokens.has(item.token);
    if (mine && !$("#view-phone").hidden) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.refresh(), 150);
    }
  },

  bubble(item, onScreen) {
    const p = item.presentation;
    const when = clock(item.receivedAt);
    if (!p) {
      // A Live Activity push: what it did to the activity, and the alert it lit the screen with.
      const aps = item.payload?.aps || {};
      const alert = aps.alert && typeof aps.alert === "object" ? [aps.alert.title, aps.alert.body].filter(Boolean).join(": ") : "";
      const outcome = item.phoneOutcome || { state: "none", text: "" };
      return el("article", { class: `bubble activity-push ${outcome.state}`, "data-id": item.uniqueId, "data-testid": "phone-notification" },
        el("header", {}, el("span", {}, "Live Activity"), el("span", {}, when)),
        el("div", { class: "title" }, alert || `${aps.event || "push"}${aps["attributes-type"] ? ` · ${aps["attributes-type"]}` : ""}`),
        el("div", { class: "meta" }, outcome.text, item.activity?.reason ? ` — ${item.activity.reason}` : ""));
    }
    if (!p.shown) {
      const badged = p.badge !== null && p.badge !== undefined;
      const why = Object.entries(p.suppressed || {}).map(([what, reason]) => `${what}: ${reason}`).join("; ");
      return el("article", { class: "bubble silent", "data-id": item.uniqueId, "data-testid": "phone-notification" },
        el("header", {}, el("span", {}, item.topic || ""), el("span", {}, when)),
        el("div", { class: "title" }, p.webPush ? `Web push: ${p.webPush.outcome}` : p.silent ? "Silent notification"
          : badged ? `Badge set to ${p.badge}` : "Not shown"),
        el("div", { class: "meta" }, p.webPush ? p.webPush.detail : badged ? "no alert: the app's icon shows the number" : p.appNotified ? "the app was told" : "", why ? ` ${why}` : ""));
    }
    const meta = [];
    if (p.sound) meta.push(`sound: ${p.sound}`);
    for (const [what, reason] of Object.entries(p.suppressed || {})) meta.push(`${what} suppressed: ${reason}`);
    for (const note of p.notes || []) meta.push(note);
    if (p.webPush?.vapidSubject) meta.push(`web push from ${p.webPush.vapidSubject}`);
    if (p.webPush?.navigate) meta.push(`opens ${p.webPush.navigate}`);
    const actions = p.style === "alert" ? p.actions || [] : p.minimalActions || [];
    const controls = [];
    const responded = item.response;
    if (responded) {
      controls.push(el("div", { class: "responded" }, `Responded: ${responded.action}${responded.text ? ` “${responded.text}”` : ""}`));
    } else if (onScreen && p.heldBy === "provisional" && item.token) {
      // iOS's choice on a provisional notification: keep the app's notifications (delivered
      // prominently from now on) or turn them off.
      const row = el("div", { class: "actions", "data-testid": "provisional-choice" });
      row.append(el("button", { type: "button", "data-action": "keep", onclick: () => this.provisional(item.token, true) }, "Keep"));
      row.append(el("button", { type: "button", class: "destructive", "data-action": "turn-off", onclick: () => this.provisional(item.token, false) }, "Turn Off"));
      controls.push(row);
    } else if (onScreen) {
      const row = el("div", { class: "actions" });
      row.append(el("button", { type: "button", "data-action": "default", onclick: () => this.respond(item.uniqueId, "default") }, "Open"));
      for (const action of actions) {
        const destructive = (action.options || []).includes("destructive");
        row.append(el("button", {
          type: "button", class: destructive ? "destructive" : null, "data-action": action.identifier,
          onclick: (event) => action.textInput ? this.reply(event.target, item.uniqueId, action) : this.respond(item.uniqueId, action.identifier),
        }, action.title));
      }
      row.append(el("button", { type: "button", "data-action": "dismiss", onclick: () => this.respond(item.uniqueId, "dismiss") }, "Dismiss"));
      controls.push(row);
    }
    const level = this.level(p);
    // A summary's notifications are dimmed while they wait for it, not once it is presented.
    const quiet = p.deliveredQuietly && !(p.heldBy === "summary" && p.summaryPresented);
    return el("article", { class: `bubble${quiet ? " quiet" : ""}`, "data-id": item.uniqueId, "data-testid": "phone-notification" },
      el("header", {}, el("span", {}, (item.topic || "").replace(/\.push-type\.[a-z]+$/, "")), el("span", {}, p.badge !== null && p.badge !== undefined ? el("span", { class: "badge", title: "badge" }, p.badge) : "", " ", when)),
      level ? el("div", { class: "level", "data-testid": "phone-level" }, level) : null,
      p.communication ? el("div", { class: "sender", "data-testid": "phone-sender" },
        el("span", { class: "avatar", title: p.communication.sender.handle }, (p.communication.sender.displayName || "?").slice(0, 1).toUpperCase()),
        p.communication.groupName ? `${p.communication.sender.displayName} · ${p.communication.groupName}` : p.communication.sender.displayName) : null,
      p.title ? el("div", { class: "title" }, p.title) : null,
      p.subtitle ? el("div", { class: "subtitle" }, p.subtitle) : null,
      p.body ? el("div", { class: "body" }, p.body) : null,
      this.extension(p.serviceExtension),
      meta.length ? el("div", { class: "meta" }, meta.join(" · ")) : null,
      controls);
  },

  /// What the app's service extension did: its content is what the bubble shows, the original
  /// beside it; or why the original is shown.
  extension(report) {
    if (!report) return null;
    const original = [report.original.title, report.original.subtitle, report.original.body].filter(Boolean).join(" — ");
    const said = {
      modified: `Changed by the service extension (${report.kind}, ${report.tookMs} ms)`,
      timeWillExpire: `Service extension out of time after ${report.tookMs} ms: the original is shown`,
      failed: `Service extension failed: the original is shown`,
    }[report.outcome] || report.outcome;
    const attached = (report.attachments || []).map((a) => a.accepted ? `attached ${a.identifier || a.url} (${a.kind})` : `not attached: ${a.reason}`);
    return el("div", { class: `extension ${report.outcome}`, "data-testid": "phone-extension" },
      el("div", {}, said),
      report.outcome === "modified" ? el("div", { class: "original" }, `Original: ${original}`) : null,
      report.outcome === "failed" && report.reason ? el("div", { class: "original" }, report.reason) : null,
      attached.length ? el("div", { class: "original" }, attached.join(" · ")) : null);
  },

  /// Keep (delivered prominently from now on) or Turn Off, on a provisional notification.
  async provisional(token, keep) {
    try {
      const app = await api("GET", `/api/v1/devices/${token}/app`);
      const authorization = keep ? { ...app.authorization, status: "authorized" } : { status: "denied", alert: false, sound: false, badge: false };
      await api("PUT", `/api/v1/devices/${token}/app`, { authorization });
      say($("#app-answer"), keep ? "Kept: the app's notifications are delivered prominently" : "Turned off: the app's notifications are off", true);
    } catch (error) {
      say($("#app-answer"), error.message, false);
    }
    await this.refresh();
  },

  /// How it interrupted, as iOS labels it (Time Sensitive, Critical), and what held it quiet or
  /// what it broke through; nothing for an active notification presented as usual.
  level(p) {
    const words = [];
    if (p.interruptionLevel === "time-sensitive") words.push("Time Sensitive");
    if (p.interruptionLevel === "critical") words.push("Critical");
    if (p.brokeThrough) words.push("broke through Focus");
    const at = p.summaryAt ? new Date(p.summaryAt).toLocaleTimeString([], { hour12: false, hour: "2-digit", minute: "2-digit" }) : "its next time";
    if (p.heldBy === "summary" && p.summaryPresented) {
      words.push(`In the Scheduled Summary of ${at}`);
    } else if (p.deliveredQuietly) {
      const by = { focus: "held by Focus", focusFilter: "held by the app's Focus filter", summary: `held for the Scheduled Summary at ${at}`, provisional: "provisional: Keep or Turn Off" }[p.heldBy] || "passive";
      words.push(`Delivered quietly · ${by}`);
    }
    return words.join(" · ");
  },

  reply(button, uniqueId, action) {
    const input = el("input", { "aria-label": action.textInput.placeholder || "Reply", placeholder: action.textInput.placeholder || "" });
    const send = el("button", { type: "submit" }, action.textInput.buttonTitle || "Send");
    const form = el("form", { class: "reply", onsubmit: (event) => { event.preventDefault(); this.respond(uniqueId, action.identifier, input.value); } }, input, send);
    button.closest(".bubble").append(form);
    input.focus();
  },

  async respond(uniqueId, action, text) {
    const body = { action };
    if (text !== undefined) body.text = text;
    try {
      await api("POST", `/api/v1/notifications/${uniqueId}/respond`, body);
    } catch (error) {
      say($("#app-answer"), error.message, false);
    }
    await this.refresh();
  },

  fill(app) {
    const form = $("#app-form");
    const authorization = app?.authorization || { status: "notDetermined", alert: false, sound: false, badge: false, timeSensitive: true, directMessages: true };
    form.status.value = authorization.status;
    for (const name of ["alert", "sound", "badge", "timeSensitive", "criticalAlert", "scheduledDelivery", "directMessages"]) form[name].checked = !!authorization[name];
    form.alertStyle.value = app?.alertStyle || "banner";
    form.appState.value = app?.appState || "notRunning";
    if (document.activeElement !== form.language) form.language.value = app?.language || "en";
    for (const box of form.querySelectorAll("input[data-surface]")) box.checked = (app?.pairedSurfaces || []).includes(box.dataset.surface);
    if (document.activeElement !== form.categories) form.categories.value = JSON.stringify(app?.categories || [], null, 2);
  },

  async save(event) {
    event.preventDefault();
    const form = event.target;
    const answer = $("#app-answer");
    if (!this.token) return say(answer, "Choose a device first (the picker above), or register one with POST /api/v1/devices.", false);
    let categories;
    try { categories = JSON.parse(form.categories.value || "[]"); } catch (error) { return say(answer, `Categories are not JSON: ${error.message}`, false); }
    const body = {
      authorization: Object.fromEntries([["status", form.status.value],
        ...["alert", "sound", "badge", "timeSensitive", "criticalAlert", "scheduledDelivery", "directMessages"].map((name) => [name, form[name].checked])]),
      alertStyle: form.alertStyle.value, appState: form.appState.value, language: form.language.value || "en", categories,
      pairedSurfaces: [...form.querySelectorAll("input[data-surface]")].filter((box) => box.checked).map((box) => box.dataset.surface),
    };
    try {
      await api("PUT", `/api/v1/devices/${this.token}/app`, body);
      say(answer, "Saved.", true);
      await this.refresh();
    } catch (error) {
      say(answer, error.message, false);
    }
  },
};

// MARK: Devices

const Devices = {
  async load() {
    const devices = await api("GET", "/api/v1/devices").catch(() => []);
    $("#devices tbody").replaceChildren(...devices.map((d) => el("tr", {
      tabindex: 0,
      onclick: () => show("phone", d.token),
      onkeydown: (event) => { if (event.key === "Enter") show("phone", d.token); },
    },
      el("td", { class: "mono", title: d.token }, short(d.token)), el("td", {}, d.topic || "–"), el("td", {}, d.deviceId || "–"),
      el("td", {}, d.connected ? "yes" : "no"), el("td", {}, d.queued), el("td", {}, d.unregisteredAt ? String(d.unregisteredAt) : "–"))));
  },
};

// MARK: Channels

const Channels = {
  async load() {
    const page = await api("GET", "/api/v1/channels").catch(() => ({ items: [] }));
    $("#channels tbody").replaceChildren(...page.items.map((c) => el("tr", { "data-id": c.id },
      el("td", { class: "mono", title: c.id }, c.id), el("td", {}, c.bundleId),
      el("td", {}, c.messageStoragePolicy === 1 ? "1: latest stored" : "0: none stored"),
      el("td", {}, c.subscribers), el("td", {}, c.published),
      el("td", { class: "mono" }, c.storedMessage ? `${JSON.stringify(c.storedMessage.payload)} until ${clock(c.storedMessage.expiresAt)}` : "–"))));
    $("#channels-empty").hidden = page.items.length > 0;
  },
};

// MARK: Providers

/// The report card of each provider the HTTP/2 provider API has seen (GET /api/v1/providers and
/// each one's report): a verdict per check, what was seen, the requests concerned (each a link to
/// the inbox searching for its apns-id) and the rule's source.
const Providers = {
  async load() {
    const list = await api("GET", "/api/v1/providers").catch(() => ({ items: [] }));
    const reports = await Promise.all(list.items.map((p) => api("GET", `/api/v1/providers/${encodeURIComponent(p.id)}/report`).catch(() => null)));
    const cards = reports.filter(Boolean).map((report) => this.card(report));
    $("#providers").replaceChildren(...(cards.length ? cards : [el("p", { class: "hint" }, "No provider has sent a request to the HTTP/2 provider API yet.")]));
  },

  card(report) {
    const p = report.provider;
    const who = p.kind === "token" ? `team ${p.teamId}, key ${p.keyId}` : p.kind === "certificate" ? `certificate ${p.subject}` : `no credentials, from ${p.peer}`;
    const rows = report.checks.map((check) => el("tr", { "data-check": check.id, class: `verdict-${check.verdict}` },
      el("td", {}, el("span", { class: `verdict ${check.verdict}` }, { pass: "Pass", fail: "Fail", notSeen: "Not seen" }[check.verdict] || check.verdict)),
      el("th", { scope: "row", class: "mono" }, check.id),
      el("td", {}, el("p", { class: "said" }, check.evidence.summary),
        check.evidence.apnsIds.length ? el("p", { class: "evidence" }, "Requests: ",
          ...check.evidence.apnsIds.slice(0, 8).flatMap((id, n) => [n ? ", " : "", el("a", { href: `/?q=${encodeURIComponent(id)}`, class: "mono", title: `Open ${id} in the inbox` }, `…${id.slice(-8)}`)])) : null,
        el("p", { class: "source" }, check.source))));
    return el("article", { class: "provider-card", "data-provider": p.id },
      el("header", {}, el("h3", { class: "mono" }, p.id), el("span", { class: `verdict ${report.verdict}` }, report.verdict === "pass" ? "Passes" : "Fails")),
      el("p", { class: "hint" }, `${who} · ${p.requests} requests over ${p.connections} connection${p.connections === 1 ? "" : "s"} · ${p.tokens} provider token${p.tokens === 1 ? "" : "s"}${report.exam ? " · exam on" : ""}`),
      el("table", { class: "list checks" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Verdict"), el("th", { scope: "col" }, "Check"), el("th", { scope: "col" }, "What was seen"))),
        el("tbody", {}, ...rows)));
  },
};

// MARK: Faults

const Faults = {
  async load() {
    const rules = await api("GET", "/api/v1/faults").catch(() => []);
    $("#faults tbody").replaceChildren(...rules.map((rule) => el("tr", { "data-id": rule.id },
      el("td", { class: "mono" }, rule.id),
      el("td", { class: "mono" }, JSON.stringify(rule.match)),
      el("td", { class: "mono" }, JSON.stringify(rule.action)),
      el("td", {}, `${rule.hits}${rule.times ? ` of ${rule.times}` : ""}`),
      el("td", {}, el("button", { type: "button", class: "secondary", "aria-label": `Remove ${rule.id}`, onclick: () => this.remove(rule.id) }, "Remove")))));
  },

  async add(event) {
    event.preventDefault();
    const form = event.target;
    const value = (name) => form[name].value.trim();
    const number = (name) => (value(name) === "" ? undefined : Number(value(name)));
    const match = {};
    for (const name of ["token", "topic", "pushType", "interface"]) if (value(name)) match[name] = value(name);
    const action = { type: value("type") };
    if (action.type === "respond") {
      if (value("reason")) action.reason = value("reason");
      if (number("status") !== undefined) action.status = number("status");
      if (number("statusByte") !== undefined) action.statusByte = number("statusByte");
    } else if (action.type === "delay") {
      action.ms = number("ms") ?? 250;
    } else if (action.type === "goaway" && value("reason")) {
      action.reason = value("reason");
    }
    const rule = { match, action };
    if (number("times") !== undefined) rule.times = number("times");
    if (number("probability") !== undefined) rule.probability = number("probability");
    try {
      const made = await api("POST", "/api/v1/faults", rule);
      say($("#fault-answer"), `Added ${made.id}.`, true);
      await this.load();
    } catch (error) {
      say($("#fault-answer"), error.message, false);
    }
  },

  async remove(id) {
    try {
      await api("DELETE", `/api/v1/faults/${id}`);
      say($("#fault-answer"), `Removed ${id}.`, true);
    } catch (error) {
      say($("#fault-answer"), error.message, false);
    }
    await this.load();
  },
};

// MARK: Send

const Send = {
  prefill() {
    const form = $("#send-form");
    const selected = Inbox.selected && Inbox.byId.get(Inbox.selected);
    if (!form.token.value && selected) form.token.value = selected.token;
  },

  /// APNs' answer to a push from the page, as lines: status and reason, ids, detail, warnings.
  describe(result) {
    if (result.answered === false) return result.message;
    const lines = [`${result.status}${result.reason ? ` ${result.reason}` : " OK"}`];
    if (result.apnsId) lines.push(`apns-id: ${result.apnsId}`);
    if (result.uniqueId) lines.push(`apns-unique-id: ${result.uniqueId}`);
    if (result.detail) lines.push(result.detail);
    for (const warning of result.warnings || []) lines.push(`warning: ${warning}`);
    return lines.join("\n");
  },

  async send(event) {
    event.preventDefault();
    const form = event.target;
    const answer = $("#send-answer");
    // A payload that is not JSON goes as it is: APNs' answer to it is worth seeing too.
    let payload = form.payload.value;
    try { payload = JSON.parse(payload); } catch { /* sent as text */ }
    if (payload === null || typeof payload !== "object" || Array.isArray(payload)) payload = form.payload.value;
    const body = { token: form.token.value.trim(), topic: form.topic.value.trim() || undefined, pushType: form.pushType.value, priority: Number(form.priority.value), payload };
    try {
      const result = await api("POST", "/api/v1/push", body);
      if (result.answered === false) return say(answer, result.message, null);
      say(answer, this.describe(result), result.status === 200);
    } catch (error) {
      say(answer, error.message, false);
    }
  },
};

// MARK: Clock and reset


const Clock = {
  async load() {
    try {
      const now = await api("GET", "/api/v1/clock");
      $("#clock-now").textContent = now.now;
      $("#clock-real").textContent = now.real;
      $("#clock-offset").textContent = now.offset;
    } catch (error) {
      say($("#clock-answer"), error.message, false);
    }
  },

  async advance(event) {
    event.preventDefault();
    try {
      await api("POST", "/api/v1/clock", { advance: event.target.advance.value.trim() });
      say($("#clock-answer"), "Moved.", true);
    } catch (error) {
      say($("#clock-answer"), error.message, false);
    }
    await this.load();
  },

  /// Reset asks twice: the first press arms it for five seconds.
  async reset(event) {
    const button = event.target;
    if (!button.dataset.armed) {
      button.dataset.armed = "1";
      button.textContent = "Press again to reset everything";
      setTimeout(() => { delete button.dataset.armed; button.textContent = "Reset the emulator"; }, 5000);
      return;
    }
    delete button.dataset.armed;
    button.textContent = "Reset the emulator";
    try {
      await api("POST", "/api/v1/reset");
      say($("#clock-answer"), "Reset.", true);
    } catch (error) {
      say($("#clock-answer"), error.message, false);
    }
    await this.load();
  },
};

// MARK: Start

document.addEventListener("DOMContentLoaded", () => {
  for (const button of $$("nav button")) button.addEventListener("click", () => show(button.dataset.view));
  // Filters and search run on the server: a quarter of a second after the last key.
  $("#filters").addEventListener("input", () => {
    clearTimeout(Inbox.typing);
    Inbox.typing = setTimeout(() => { Route.write(); Inbox.load(false); }, 250);
  });
  $("#inbox-more").addEventListener("click", () => Inbox.more());
  $("#inbox-newer").addEventListener("click", () => { $("#list-pane").scrollTop = 0; window.scrollTo(0, 0); Inbox.load(false); });
  // Older rows load as the list scrolls to its end (the pane on a wide screen, the page on a phone).
  const nearEnd = () => {
    const pane = $("#list-pane");
    const paneEnd = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 300 && pane.scrollHeight > pane.clientHeight;
    const pageEnd = document.documentElement.scrollHeight - window.scrollY - window.innerHeight < 300;
    if ((paneEnd || pageEnd) && !$("#view-inbox").hidden && !document.body.classList.contains("detail-open")) Inbox.more();
  };
  $("#list-pane").addEventListener("scroll", nearEnd, { passive: true });
  window.addEventListener("scroll", nearEnd, { passive: true });
  $("#filters").addEventListener("submit", (event) => event.preventDefault());
  $("#phone-device").addEventListener("change", (event) => show("phone", event.target.value));
  $("#phone-app-pick").addEventListener("change", (event) => { Phone.token = event.target.value; Phone.refresh(); });
  $("#phone-refresh").addEventListener("click", () => Phone.open(Phone.device));
  $("#app-form").addEventListener("submit", (event) => Phone.save(event));
  $("#fault-form").addEventListener("submit", (event) => Faults.add(event));
  $("#send-form").addEventListener("submit", (event) => Send.send(event));
  $("#clock-form").addEventListener("submit", (event) => Clock.advance(event));
  $("#reset").addEventListener("click", (event) => Clock.reset(event));
  Live.start();
  Load.start();
  // A page the browser keeps in its back/forward cache would keep its event stream open, and a
  // browser opens at most six connections to one host: after a few pages the next one waits for
  // ever. The stream closes as the page is left and opens again if it comes back.
  window.addEventListener("pagehide", () => Live.source?.close());
  window.addEventListener("pageshow", (event) => { if (event.persisted) Live.start(); });
  Route.read();
  show(Route.view, Route.device);
  if (Route.notification) Inbox.select(Route.notification);
  window.addEventListener("popstate", () => { Route.read(); show(Route.view, Route.device); Inbox.load(false); });
});
