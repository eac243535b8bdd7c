// Home Screen web apps on the phone.
import { $, api, clock, el } from "./core.js";
import { Phone } from "./phone.js";

// MARK: Web apps

export const WebApps = {
  /// The tokens of the web apps on screen: their pushes refresh the phone.
  tokens: new Set(),

  /// The device's web apps (Safari pages, Home Screen web apps) with their subscriptions, and
  /// each one's latest web pushes as the browser opened them: the decrypted message, who sent it
  /// (the VAPID subject), what was shown; a push the service worker got can be shown from here.
  async show(tokens, device) {
    const area = $("#web-apps");
    const lists = await Promise.all(tokens.map((token) =>
      api("GET", `/api/v1/devices/${token}/web-apps`).then((apps) => apps.map((app) => [token, app])).catch(() => [])));
    // Each of the device's tokens lists the device's web apps: one card per subscription.
    const seen = new Set();
    const apps = lists.flat().filter(([, app]) => {
      const key = `${app.id} ${app.subscription?.endpoint}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
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
