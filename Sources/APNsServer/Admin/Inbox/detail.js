// The detail pane of one notification.
import { $, $$, api, caPath, clock, http2Port, el, environmentName, productionPort, refused, say, short, statusText } from "./core.js";
import { Inbox } from "./list.js";
import { Route, show } from "./route.js";
import { Send } from "./send.js";

// MARK: Detail

/// The detail is a pane beside the list with tabs (summary, payload, headers, answer, timeline,
/// raw, send again); on a phone it is a screen of its own with Back.
export const Detail = {
  tab: "summary",
  item: null,

  /// Closes the detail; `push`: a person closed it (a history entry), not Back.
  close(push = true) {
    $("#detail").hidden = true;
    $(".split").classList.remove("open");
    document.body.classList.remove("detail-open");
    Inbox.selected = null;
    Route.notification = null;
    Route.write(push);
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
    // To the endpoint it was sent to: a production build's token is refused at the sandbox.
    const port = item.environment === "production" ? productionPort() : http2Port();
    lines.push(`https://localhost:${port}${item.source === "broadcast" ? item.path : `/3/device/${item.token}`}`);
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
      if (item.presentation) steps.push(el("li", {}, `on the phone: ${item.phoneOutcome?.text ?? (item.presentation.shown ? "shown" : "not shown")}`));
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
        Detail.pairs([["token", item.token], ["topic", item.topic ?? "–"], ["interface", item.source], ["environment", environmentName(item)], ["type", item.pushType ?? "–"], ["priority", item.priority ?? "–"], ["received", item.receivedAt], ["status since", item.statusAt ?? "–"]]),
        phone,
        // What the phone noted beside its decision (time-sensitive without the entitlement, presented as active).
        item.presentation?.notes?.length ? [el("h3", {}, "The phone noted"), el("ul", { class: "notes", "data-testid": "detail-phone-notes" }, item.presentation.notes.map((n) => el("li", {}, n)))] : null,
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
        onclick: () => { this.tab = id; Route.write(); this.show(this.item); },
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
    if (item.environment && item.source !== "webpush") body.environment = item.environment;
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
