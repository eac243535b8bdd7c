// Devices and broadcast channels.
import { $, api, clock, el, short } from "./core.js";
import { show } from "./route.js";

// MARK: Devices

export const Devices = {
  async load() {
    const devices = await api("GET", "/api/v1/devices").catch(() => []);
    $("#devices tbody").replaceChildren(...devices.map((d) => el("tr", {
      tabindex: 0,
      onclick: () => show("phone", d.token, true),
      onkeydown: (event) => { if (event.key === "Enter") show("phone", d.token, true); },
    },
      el("td", { class: "mono", title: d.token }, short(d.token)), el("td", {}, d.topic || "–"), el("td", {}, d.deviceId || "–"),
      el("td", {}, d.connected ? "yes" : "no"), el("td", {}, d.queued), el("td", {}, d.unregisteredAt ? String(d.unregisteredAt) : "–"))));
  },
};

// MARK: Channels

export const Channels = {
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
