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

const short = (token) => (token && token.length > 12 ? token.slice(0, 8) + "…" : token || "–");
const clock = (iso) => {
  if (!iso) return "–";
  const date = new Date(iso);
  return date.toLocaleTimeString([], { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
};
const http2Port = () => $('meta[name="apns-http2-port"]')?.content || "2197";

// MARK: Views

function show(view, argument) {
  for (const button of $$("nav button")) {
    if (button.dataset.view === view) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  for (const section of $$("main > .view")) section.hidden = section.id !== `view-${view}`;
  const hash = argument ? `#${view}/${argument}` : `#${view}`;
  // Each view has its own address (a link to a phone works); replaceState fires no hashchange.
  if (location.hash !== hash) history.replaceState(null, "", hash);
  const enter = { phone: () => Phone.open(argument), devices: Devices.load, channels: Channels.load, faults: Faults.load, clock: Clock.load, send: Send.prefill };
  enter[view]?.();
}

// MARK: Inbox

const Inbox = {
  entries: new Map(),
  selected: null,
  limit: 2000,
  pending: false,

  async load() {
    const page = await api("GET", "/api/v1/notifications?limit=1000");
    if (page.shards) Shards.show(page.shards);
    this.entries.clear();
    for (const item of page.items.reverse()) this.entries.set(item.id, item);
    this.render();
  },

  upsert(item, fresh) {
    const known = this.entries.has(item.id);
    this.entries.delete(item.id);
    this.entries.set(item.id, item);
    if (!known) item._fresh = fresh;
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value);
    this.schedule();
    if (this.selected === item.id) Detail.show(item);
  },

  clear() {
    this.entries.clear();
    this.selected = null;
    Detail.close();
    this.render();
  },

  /// Renders at most ten times a second, however fast events arrive (a load test).
  schedule() {
    if (this.pending) return;
    this.pending = true;
    setTimeout(() => { this.pending = false; this.render(); }, 100);
  },

  matches(item, filter) {
    if (filter.token && !(item.token || "").toLowerCase().includes(filter.token.toLowerCase())) return false;
    if (filter.topic && !(item.topic || "").includes(filter.topic)) return false;
    if (filter.status && item.status !== filter.status) return false;
    if (filter.interface && item.source !== filter.interface) return false;
    if (filter.search) {
      const text = item.payload !== undefined && item.payload !== null ? JSON.stringify(item.payload) : item.body || "";
      if (!text.toLowerCase().includes(filter.search.toLowerCase())) return false;
    }
    return true;
  },

  render() {
    const filter = Object.fromEntries(new FormData($("#filters")).entries());
    const rows = [];
    const all = Array.from(this.entries.values()).reverse();
    for (const item of all) {
      if (rows.length >= 500) break;
      if (this.matches(item, filter)) rows.push(this.row(item));
    }
    $("#inbox tbody").replaceChildren(...rows);
    $("#inbox-count").textContent = String(rows.length);
    $("#inbox-empty").hidden = all.length > 0;
  },

  row(item) {
    const status = [el("span", { class: `status ${item.status}` }, item.status)];
    if (item.status === "rejected" && item.reason) status.push(" ", item.reason);
    if (item.source === "local") status.push(el("span", { class: "tag local" }, "local"));
    if (item.source === "broadcast") status.push(el("span", { class: "tag broadcast" }, item.operation === "publish" && item.fanOut !== null ? `broadcast → ${item.fanOut}` : item.operation || "channel"));
    if (item.fault) status.push(el("span", { class: "tag fault" }, "fault"));
    const warnings = (item.warnings || []).map((w) => el("span", { class: "tag warn", title: w.message || "" }, w.code || String(w)));
    const summary = this.summary(item);
    const row = el("tr", {
      tabindex: 0, "data-id": item.id, "aria-selected": this.selected === item.id ? "true" : "false",
      class: item._fresh ? "fresh" : null,
      onclick: () => this.select(item.id),
      onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); this.select(item.id); } },
    },
      el("td", { class: "mono" }, clock(item.receivedAt)),
      el("td", { class: "mono", title: item.token || item.channelId || "" }, item.source === "broadcast" ? `channel ${short(item.channelId)}` : short(item.token)),
      el("td", { class: "summary", title: summary }, summary),
      el("td", {}, item.topic || "–"),
      el("td", {}, item.pushType || "–"),
      el("td", {}, item.priority ?? "–"),
      el("td", {}, status),
      el("td", {}, warnings.length ? warnings : "–"));
    item._fresh = false;
    return row;
  },

  /// What a notification says, as a mail client shows a subject: the alert's title and body, what
  /// a silent push or a wake did, or a rejection's reason and detail.
  summary(item) {
    if (item.status === "rejected") return [item.reason, item.detail].filter(Boolean).join(": ") || "rejected";
    if (item.source === "broadcast") return item.operation === "publish" ? `broadcast to ${item.fanOut ?? 0} activities` : `channel ${item.operation || "request"}`;
    const presentation = item.presentation;
    if (presentation && presentation.wake) return `${presentation.wake.target}: ${presentation.wake.outcome}`;
    const aps = item.payload && typeof item.payload === "object" ? item.payload.aps || {} : {};
    if (aps.event) return `Live Activity ${aps.event}`;
    const alert = aps.alert;
    const texts = presentation && (presentation.title || presentation.body)
      ? [presentation.title, presentation.body]
      : typeof alert === "string" ? [alert] : alert && typeof alert === "object" ? [alert.title || alert["title-loc-key"], alert.body || alert["loc-key"]] : [];
    const text = texts.filter(Boolean).join(": ");
    if (text) return text;
    return aps["content-available"] === 1 ? "silent (content-available)" : "silent";
  },

  select(id) {
    this.selected = id;
    for (const row of $$("#inbox tbody tr")) row.setAttribute("aria-selected", row.dataset.id === id ? "true" : "false");
    const item = this.entries.get(id);
    if (item) Detail.show(item);
  },
};

// MARK: Detail

const Detail = {
  close() {
    $("#detail").hidden = true;
    $(".split").classList.remove("open");
    Inbox.selected = null;
  },

  /// The request's headers as the provider sent them (the journal keeps each one's value).
  headers(item) {
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
    const lines = ["curl --http2 --cacert certs/ca.pem"];
    if (item.method && item.method !== "POST") lines.push(`-X ${item.method}`);
    for (const [name, value] of this.headers(item)) if (name !== "apns-id") lines.push(`-H ${quote(`${name}: ${value}`)}`);
    if (body) lines.push(`-d ${quote(body)}`);
    lines.push(`https://localhost:${http2Port()}${item.source === "broadcast" ? item.path : `/3/device/${item.token}`}`);
    return lines.join(" \\\n  ");
  },

  apnsFile(item) {
    const payload = item.payload && typeof item.payload === "object" ? { ...item.payload } : {};
    if (item.topic) payload["Simulator Target Bundle"] = item.topic;
    return JSON.stringify(payload, null, 2);
  },

  timeline(item) {
    const steps = [el("li", {}, `received ${clock(item.receivedAt)} over ${item.source}`)];
    if (item.status === "rejected") {
      steps.push(el("li", {}, `rejected: ${item.httpStatus ?? ""} ${item.reason ?? ""}${item.statusByte !== null && item.statusByte !== undefined ? ` (status byte ${item.statusByte})` : ""}`));
    } else {
      steps.push(el("li", {}, "committed to the store, answered 200"));
      if (item.presentation) steps.push(el("li", {}, `presented: ${item.presentation.shown ? `shown as ${item.presentation.style}` : "not shown"}`));
      if (item.status !== "queued") steps.push(el("li", {}, `${item.status} ${clock(item.statusAt)}`));
      if (item.response) steps.push(el("li", {}, `responded: ${item.response.action}${item.response.text ? ` “${item.response.text}”` : ""}`));
    }
    return el("ol", {}, steps);
  },

  show(item) {
    const answer = item.status === "rejected"
      ? [["status", item.httpStatus ?? "–"], ["reason", item.reason ?? "–"], ["status byte", item.statusByte ?? "–"], ["detail", item.detail ?? "–"]]
      : item.source === "broadcast"
        ? [["status", item.httpStatus], ["apns-request-id", item.requestId], ["apns-channel-id", item.channelId ?? "–"], ["apns-unique-id", item.uniqueId ?? "–"], ["fan-out", item.fanOut ?? "–"]]
        : [["status", 200], ["apns-id", item.apnsId], ["apns-unique-id", item.uniqueId ?? "–"]];
    const pairs = (list) => el("dl", {}, list.flatMap(([name, value]) => [el("dt", {}, name), el("dd", { class: "mono" }, value ?? "–")]));
    const apns = this.apnsFile(item);
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = URL.createObjectURL(new Blob([apns], { type: "application/json" }));
    const download = el("a", { href: this.url, download: `${item.id}.apns` }, "Download .apns");
    const detail = $("#detail");
    // replaceChildren neither flattens lists nor skips nulls: the optional sections are both.
    const sections = [
      el("button", { type: "button", class: "secondary close", onclick: () => { this.close(); Inbox.render(); } }, "Close"),
      el("h2", {}, "Notification ", el("span", { class: "mono" }, short(item.id))),
      pairs([["token", item.token], ["topic", item.topic ?? "–"], ["interface", item.source], ["status", item.status], ["received", item.receivedAt]]),
      el("h3", {}, "Payload"), el("pre", { id: "detail-payload" }, this.payloadText(item)),
      el("h3", {}, "Headers"), el("pre", { id: "detail-headers" }, this.headers(item).map(([n, v]) => `${n}: ${v}`).join("\n") || "(none)"),
      el("h3", {}, "Answer"), pairs(answer),
      el("h3", {}, "Timeline"), this.logged(item) ? el("ol", { id: "detail-delivery-log", class: "delivery-log" }, el("li", {}, "loading…")) : this.timeline(item),
      item.source === "broadcast" && item.fanOut ? [el("h3", {}, "Fan-out"), el("ul", { id: "detail-fanout" }, el("li", {}, "loading…"))] : null,
      item.warnings && item.warnings.length ? [el("h3", {}, "Warnings"), el("pre", {}, JSON.stringify(item.warnings, null, 2))] : null,
      item.fault ? [el("h3", {}, "Fault"), el("pre", {}, JSON.stringify(item.fault, null, 2))] : null,
      item.presentation ? [el("h3", {}, "Presentation"), el("pre", {}, JSON.stringify(item.presentation, null, 2))] : null,
      el("h3", {}, "Reproduce with curl"), el("pre", { id: "detail-curl" }, this.curl(item)),
      el("h3", {}, ".apns file (xcrun simctl push)"), el("pre", {}, apns), download,
    ];
    detail.replaceChildren(...sections.flat().filter((section) => section !== null));
    detail.hidden = false;
    $(".split").classList.add("open");
    if (item.source === "broadcast" && item.fanOut) this.fanOut(item.id);
    if (this.logged(item)) this.deliveryLog(item);
  },

  /// Whether APNs accepted it, so that it has a delivery log.
  logged(item) {
    return item.status !== "rejected" && item.source !== "broadcast";
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
  kinds: ["accepted", "rejected", "delivered", "expired", "discarded", "replaced", "dropped", "unregistered", "presented", "response", "broadcast"],

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
        Inbox.upsert(item, kind === "accepted" || kind === "rejected" || kind === "broadcast");
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
      if (Phone.app && change.topic === Phone.app.topic && change.deviceId === Phone.app.deviceId) Phone.heard({ token: Phone.token });
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
  async show(token) {
    const area = $("#web-apps");
    const apps = await api("GET", `/api/v1/devices/${token}/web-apps`).catch(() => []);
    const pushes = await Promise.all(apps.map((app) =>
      api("GET", `/api/v1/notifications?token=${app.token}&interface=webpush&limit=10`).catch(() => ({ items: [] }))));
    if (token !== Phone.token) return;
    this.tokens = new Set(apps.map((app) => app.token));
    area.hidden = apps.length === 0;
    area.replaceChildren(el("h2", {}, "Web apps"), ...apps.map((app, index) => this.card(token, app, pushes[index].items || [])));
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
        await this.show(token);
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
  async show(token, app) {
    const area = $("#phone-activities");
    const island = $("#island");
    const list = app ? await api("GET", `/api/v1/devices/${token}/activities`).catch(() => ({ items: [] })) : { items: [] };
    if (token !== Phone.token) return;
    // Running and ended ones are on the Lock Screen; the three latest dismissed stay in view, faded, for their history.
    const all = list.items || [];
    const items = all.filter((a) => a.activityState !== "dismissed").concat(all.filter((a) => a.activityState === "dismissed").slice(0, 3));
    area.replaceChildren(...items.map((a) => this.card(a)));
    const top = (list.items || []).find((a) => a.activityState === "active" || a.activityState === "stale");
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

  /// An activity drawn in a size class from its content state: `small`, the type and the first
  /// two fields; `compact`, the leading and trailing views.
  drawn(activity, family) {
    if (family === "compact") return el("div", { class: "screen compact" }, ...this.compact(activity));
    const fields = Object.entries(activity.contentState || {}).sort(([a], [b]) => a.localeCompare(b)).slice(0, 2);
    return el("div", { class: `screen ${family}` },
      el("strong", {}, activity.type),
      ...fields.map(([key, value]) => el("span", { class: "field" },
        el("small", {}, key), typeof value === "object" && value !== null ? JSON.stringify(value) : String(value))));
  },

  /// The content state's fields as the card's rows (nested values as JSON).
  rows(state) {
    const entries = Object.entries(state && typeof state === "object" ? state : {});
    return entries.sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) =>
      [el("dt", {}, key), el("dd", {}, typeof value === "object" && value !== null ? JSON.stringify(value) : String(value))]);
  },

  /// Compact leading (the type) and trailing (the first content-state value) views.
  compact(activity) {
    const [first] = Object.entries(activity.contentState || {}).sort(([a], [b]) => a.localeCompare(b));
    const trailing = first ? (typeof first[1] === "object" ? JSON.stringify(first[1]) : String(first[1])) : "";
    return [el("span", { class: "leading" }, activity.type), el("span", { class: "trailing" }, trailing)];
  },

  card(activity) {
    const timeline = el("ol", {}, ...(activity.history || []).map((h) =>
      el("li", { class: h.outcome.replace(" ", "-") }, `${clock(h.at)} ${h.event}: ${h.outcome}${h.reason ? ` (${h.reason})` : ""}`)));
    const attributes = Object.entries(activity.attributes || {}).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(" · ");
    const alert = activity.alert ? el("div", { class: "alert" }, `${activity.alert.title || ""} ${activity.alert.body || ""}`.trim()) : null;
    return el("article", { class: `activity ${activity.activityState}`, "data-activity": activity.id },
      el("header", {}, el("span", {}, `${activity.type}${attributes ? ` · ${attributes}` : ""}`), el("span", { class: "state" }, activity.activityState)),
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
  token: null,
  app: null,

  async open(token) {
    const select = $("#phone-token");
    let devices = [];
    try { devices = await api("GET", "/api/v1/devices"); } catch (error) { devices = []; }
    const tokens = devices.filter((d) => !d.unregisteredAt);
    select.replaceChildren(...tokens.map((d) => el("option", { value: d.token }, `${short(d.token)} ${d.topic || ""}${d.connected ? " (connected)" : ""}`)));
    if (token && !tokens.some((d) => d.token === token)) select.append(el("option", { value: token }, short(token)));
    this.token = token || this.token || tokens[0]?.token || null;
    if (this.token) select.value = this.token;
    await this.refresh();
  },

  async refresh() {
    const screen = $("#phone-screen");
    if (!this.token || $("#view-phone").hidden) return;
    const token = this.token;
    let app = null;
    try { app = await api("GET", `/api/v1/devices/${token}/app`); } catch { app = null; }
    const history = await api("GET", `/api/v1/notifications?token=${token}&limit=30`).catch(() => ({ items: [] }));
    const center = await api("GET", `/api/v1/devices/${token}/delivered`).catch(() => ({ items: [] }));
    const now = await api("GET", "/api/v1/clock").catch(() => null);
    if (token !== this.token) return;
    // The phone shows the emulator's time (which tests may have moved), in the phone's time zone.
    if (now) {
      const options = { hour: "2-digit", minute: "2-digit", hour12: false };
      try {
        $("#phone-time").textContent = new Date(now.now).toLocaleTimeString([], { ...options, timeZone: app?.timeZone || undefined });
      } catch {
        $("#phone-time").textContent = new Date(now.now).toLocaleTimeString([], options);
      }
    }
    this.app = app;
    this.fill(app);
    await Activities.show(token, app);
    await WebApps.show(token);
    const onScreen = new Set((center.items || []).map((entry) => entry.uniqueId));
    $("#phone-app").textContent = app ? `${app.topic}${app.badge ? ` · badge ${app.badge}` : ""}` : "";
    const bubbles = (history.items || []).filter((item) => item.presentation).map((item) => this.bubble(item, onScreen.has(item.uniqueId)));
    if (!app) {
      screen.replaceChildren(el("p", { class: "empty" }, "This token's app has no settings yet: save them on the right, then push."));
    } else {
      screen.replaceChildren(...(bubbles.length ? bubbles : [el("p", { class: "empty" }, "No notifications")]));
    }
  },

  /// An event for the token on screen, or for one of its device's web apps, refreshes the phone.
  heard(item) {
    if ((item.token === this.token || WebApps.tokens.has(item.token)) && !$("#view-phone").hidden) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.refresh(), 150);
    }
  },

  bubble(item, onScreen) {
    const p = item.presentation;
    const when = clock(item.receivedAt);
    if (!p.shown) {
      const why = Object.entries(p.suppressed || {}).map(([what, reason]) => `${what}: ${reason}`).join("; ");
      return el("article", { class: "bubble silent", "data-id": item.uniqueId },
        el("header", {}, el("span", {}, item.topic || ""), el("span", {}, when)),
        el("div", { class: "title" }, p.webPush ? `Web push: ${p.webPush.outcome}` : p.silent ? "Silent notification" : "Not shown"),
        el("div", { class: "meta" }, p.webPush ? p.webPush.detail : p.appNotified ? "the app was told" : "", why ? ` ${why}` : ""));
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
    return el("article", { class: "bubble", "data-id": item.uniqueId },
      el("header", {}, el("span", {}, item.topic || ""), el("span", {}, p.badge !== null && p.badge !== undefined ? el("span", { class: "badge", title: "badge" }, p.badge) : "", " ", when)),
      p.title ? el("div", { class: "title" }, p.title) : null,
      p.subtitle ? el("div", { class: "subtitle" }, p.subtitle) : null,
      p.body ? el("div", { class: "body" }, p.body) : null,
      meta.length ? el("div", { class: "meta" }, meta.join(" · ")) : null,
      controls);
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
    const authorization = app?.authorization || { status: "notDetermined", alert: false, sound: false, badge: false };
    form.status.value = authorization.status;
    form.alert.checked = !!authorization.alert;
    form.sound.checked = !!authorization.sound;
    form.badge.checked = !!authorization.badge;
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
    if (!this.token) return say(answer, "Choose a device token first.", false);
    let categories;
    try { categories = JSON.parse(form.categories.value || "[]"); } catch (error) { return say(answer, `Categories are not JSON: ${error.message}`, false); }
    const body = {
      authorization: { status: form.status.value, alert: form.alert.checked, sound: form.sound.checked, badge: form.badge.checked },
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
    const selected = Inbox.selected && Inbox.entries.get(Inbox.selected);
    if (!form.token.value && selected) form.token.value = selected.token;
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
      const lines = [`${result.status}${result.reason ? ` ${result.reason}` : " OK"}`];
      if (result.apnsId) lines.push(`apns-id: ${result.apnsId}`);
      if (result.uniqueId) lines.push(`apns-unique-id: ${result.uniqueId}`);
      if (result.detail) lines.push(result.detail);
      for (const warning of result.warnings || []) lines.push(`warning: ${warning}`);
      say(answer, lines.join("\n"), result.status === 200);
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
  $("#filters").addEventListener("input", () => Inbox.render());
  $("#filters").addEventListener("submit", (event) => event.preventDefault());
  $("#phone-token").addEventListener("change", (event) => show("phone", event.target.value));
  $("#phone-refresh").addEventListener("click", () => Phone.refresh());
  $("#app-form").addEventListener("submit", (event) => Phone.save(event));
  $("#fault-form").addEventListener("submit", (event) => Faults.add(event));
  $("#send-form").addEventListener("submit", (event) => Send.send(event));
  $("#clock-form").addEventListener("submit", (event) => Clock.advance(event));
  $("#reset").addEventListener("click", (event) => Clock.reset(event));
  Live.start();
  Load.start();
  const route = () => {
    const [view, argument] = location.hash.slice(1).split("/");
    show(["inbox", "phone", "devices", "channels", "faults", "send", "clock"].includes(view) ? view : "inbox", argument);
  };
  window.addEventListener("hashchange", route);
  route();
});
