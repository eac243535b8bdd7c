// Fault rules.
import { $, api, el, say } from "./core.js";

// MARK: Faults

export const Faults = {
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
