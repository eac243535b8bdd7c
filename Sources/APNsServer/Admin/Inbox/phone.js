// The phone view: its devices, apps and Notification Center.
import { Activities } from "./activities.js";
import { $, api, counted, el, heldByDevice, short } from "./core.js";
import { Route } from "./route.js";
import { WebApps } from "./webapps.js";

// MARK: Phone

/// An app's topic without a push type's suffix (a Live Activity's token comes with one).
const appTopic = (topic) => (topic || "").replace(/\.push-type\.[a-z]+$/, "");

export const Phone = {
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
      const held = heldByDevice(record);
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
    this.pick();
    if (Route.device !== this.device) { Route.device = this.device; Route.write(); }
    await this.refresh();
  },

  /// The device picker: devices first, then the tokens no device holds, each group counted;
  /// the box beside it narrows both (a load test leaves hundreds of tokens).
  pick() {
    const select = $("#phone-device");
    const wanted = ($("#phone-device-search")?.value || "").trim().toLowerCase();
    const label = (d) => d.isDevice
      ? `${d.id} · ${Phone.appCount(d)}${d.tokens.some((t) => t.connected) ? " (connected)" : ""}`
      : `token ${short(d.id)}${d.tokens[0].topic ? ` ${d.tokens[0].topic}` : ""} (no device)`;
    const all = [...this.known.values()].sort((a, b) => a.id.localeCompare(b.id));
    const shown = all.filter((d) => d.id === this.device || !wanted || label(d).toLowerCase().includes(wanted) || d.id.toLowerCase().includes(wanted));
    const group = (name, list, total) => list.length
      ? el("optgroup", { label: counted(name, list.length, total) },
        ...list.map((d) => el("option", { value: d.id }, label(d))))
      : null;
    const devices = all.filter((d) => d.isDevice).length;
    select.replaceChildren(...[
      group("Devices", shown.filter((d) => d.isDevice), devices),
      group("Tokens no device holds", shown.filter((d) => !d.isDevice), all.length - devices),
    ].filter(Boolean));
    if (this.device) select.value = this.device;
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
    this.showTime(now, apps);
    $("#phone-app").textContent = this.known?.get(device)?.isDevice ? device : "no device";
    this.pickApp(apps);
    this.fill(this.app);
    await Activities.show(apps.filter((a) => a.app), device);
    await WebApps.show(apps.map((a) => a.token), device);
    const onScreen = new Set(centers.flatMap((center) => (center.items || []).map((entry) => entry.uniqueId)));
    const items = histories.flatMap((history, index) => (history.items || []).filter((item) => item.presentation || Phone.alerting(item))
      .map((item) => ({ item, topic: held[index].app?.topic || appTopic(held[index].topic || item.topic) })));
    items.sort((a, b) => (a.item.receivedAt < b.item.receivedAt ? 1 : -1));
    screen.replaceChildren(...(await this.screen(apps, items, onScreen, device, tokens)));
  },

  /// The phone shows the emulator's time (which tests may have moved), in the phone's time zone.
  showTime(now, apps) {
    if (!now) return;
    const timeZone = apps.find((a) => a.app?.timeZone)?.app.timeZone;
    this.now = new Date(now.now).getTime();
    const options = { hour: "2-digit", minute: "2-digit", hour12: false };
    try {
      $("#phone-time").textContent = new Date(now.now).toLocaleTimeString([], { ...options, timeZone: timeZone || undefined });
    } catch {
      $("#phone-time").textContent = new Date(now.now).toLocaleTimeString([], options);
    }
  },

  /// The screen: the Home Screen's icons, what waits and why, and Notification Center.
  async screen(apps, items, onScreen, device, tokens) {
    const waiting = apps.reduce((sum, a) => sum + a.queued, 0);
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
    return parts;
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
};
