// Devices and broadcast channels.
import { $, api, clock, counted, el, environmentTag, heldByDevice, short } from "./core.js";
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
      el("td", { class: "mono", title: d.token }, short(d.token)), el("td", {}, d.topic || "–"),
      el("td", {}, d.environment ? environmentTag(d.environment) : "–"), el("td", {}, d.deviceId || "–"),
      el("td", {}, d.connected ? "yes" : "no"), el("td", {}, d.queued), el("td", {}, d.unregisteredAt ? String(d.unregisteredAt) : "–"));
    const group = (name, list, total) => list.length
      ? [el("tr", { class: "group" }, el("th", { colspan: 7, scope: "rowgroup" }, counted(name, list.length, total))), ...list.map(row)]
      : [];
    const devices = all.filter(held).length;
    $("#devices tbody").replaceChildren(
      ...group("Tokens of devices", shown.filter(held), devices),
      ...group("Tokens no device holds", shown.filter((d) => !held(d)), all.length - devices));
  },

  /// The Push Notifications Console's token validation: known or not, the build's environment
  /// and endpoint, app, device, still registered or since when not, and a sentence saying where to push it.
  async check(event) {
    event.preventDefault();
    const answer = $("#token-check-answer");
    const token = event.target.elements.token.value.trim();
    answer.hidden = false;
    answer.className = "token-check-answer";
    if (!token) {
      answer.replaceChildren("Paste a device token (hex) to check it.");
      return;
    }
    try {
      const check = await api("GET", `/api/v1/tokens/${encodeURIComponent(token)}`);
      const good = check.known && check.registered;
      answer.classList.add(good ? "good" : "bad");
      const facts = [["environment", check.environment ? `${check.environment} (${check.endpoint})` : "–"], ["app", check.topic || "–"],
        ["device", check.deviceId || "–"], ["registered", check.registeredAt || "–"], ["unregistered", check.unregisteredAt || "–"], ["queued", check.queued ?? "–"]];
      answer.replaceChildren(el("p", { "data-testid": "token-check-verdict" }, check.verdict),
        check.known ? el("dl", {}, facts.flatMap(([name, value]) => [el("dt", {}, name), el("dd", { class: "mono" }, String(value))])) : "");
    } catch (error) {
      answer.classList.add("bad");
      answer.replaceChildren(el("p", { "data-testid": "token-check-verdict" }, error.message));
    }
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
      el("td", { class: "mono" }, c.storedMessage ? `${JSON.stringify(c.storedMessage.payload)} until ${clock(c.storedMessage.expiresAt)}` : "–"),
      // A channel belongs to the environment it was created in (none: one kept from before, reached from both).
      el("td", {}, c.environment ? environmentTag(c.environment) : "both"))));
    $("#channels-empty").hidden = page.items.length > 0;
  },
};
