// Live Activities on the phone.
import { $, api, clock, el } from "./core.js";
import { Phone } from "./phone.js";

// MARK: Live Activities

export const Activities = {
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
