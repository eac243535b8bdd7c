// Devices and broadcast channels.
import { $, api, clock, counted, el, heldByDevice, short } from "./core.js";
import { show } from "./route.js";

// MARK: Devices

export const Devices = {
  records: [],

  async load() {
    Devices.records = await api("GET", "/api/v1/devices").catch(() => []);
    Devices.render();
  },

  /// The tokens, those a device holds first (by device), then those no device holds, each group
  /// counted; the Find box narrows them (a load test leaves hundreds).
  render() {
    const wanted = ($("#devices-search").value || "").trim().toLowerCase();
    const held = heldByDevice;
    const all = [...Devices.records].sort((a, b) => Number(held(b)) - Number(held(a)) || (a.deviceId || "").localeCompare(b.deviceId || ""));
    const shown = all.filter((d) => !wanted || [d.token, d.topic, d.deviceId].some((v) => (v || "").toLowerCase().includes(wanted)));
    const row = (d) => el("tr", {
      tabindex: 0, "data-testid": "device-row",
      onclick: () => show("phone", d.token, true),
      onkeydown: (event) => { if (event.key === "Enter") show("phone", d.token, true); },
    },
      el("td", { class: "mono", title: d.token }, short(d.token)), el("td", {}, d.topic || "–"), el("td", {}, d.deviceId || "–"),
      el("td", {}, d.connected ? "yes" : "no"), el("td", {}, d.queued), el("td", {}, d.unregisteredAt ? String(d.unregisteredAt) : "–"));
    const group = (name, list, total) => list.length
      ? [el("tr", { class: "group" }, el("th", { colspan: 6, scope: "rowgroup" }, counted(name, list.length, total))), ...list.map(row)]
      : [];
    const devices = all.filter(held).length;
    $("#devices tbody").replaceChildren(
      ...group("Tokens of devices", shown.filter(held), devices),
      ...group("Tokens no device holds", shown.filter((d) => !held(d)), all.length - devices));
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
