// The page's views and its address.
import { Clock } from "./clock.js";
import { $, $$ } from "./core.js";
import { Detail } from "./detail.js";
import { Channels, Devices } from "./devices.js";
import { Faults } from "./faults.js";
import { Inbox } from "./list.js";
import { Phone } from "./phone.js";
import { Providers } from "./providers.js";
import { Search } from "./search.js";
import { Send } from "./send.js";

// MARK: Views and the address

/// The page's state lives in its URL, so that a link can be shared and reloaded:
/// `/?q=status:rejected`, `/?q=tide`, `/?notification=<uniqueId>`, `/?view=phone&device=<device id>`.
/// (`/?status=rejected` and `#phone/<token>`, the older forms, still work.) Each change a person
/// makes is a history entry (``write(true)``): Back and Forward walk them.
export const Route = {
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
    // The detail's tab is kept with the notification it shows.
    if (Detail.names.some(([id]) => id === params.get("tab"))) Detail.tab = params.get("tab");
    const form = $("#filters");
    let q = params.get("q") || "";
    for (const name of Search.fields) if (params.get(name)) q = Search.set(q, name, params.get(name));
    form.elements.q.value = q;
    Search.showIn(form);
  },

  /// The URL follows the page; `push` makes it a new history entry (a person's change), else it
  /// replaces the current one.
  write(push = false) {
    const params = new URLSearchParams();
    if (this.view !== "inbox") params.set("view", this.view);
    if (this.view === "phone" && this.device) params.set("device", this.device);
    if (this.view === "inbox") {
      for (const [name, value] of Inbox.filter()) params.set(name, value);
      if (this.notification) params.set("notification", this.notification);
      if (this.notification && Detail.tab !== "summary") params.set("tab", Detail.tab);
    }
    const query = params.toString();
    const address = query ? `/?${query}` : "/";
    if (location.pathname + location.search + location.hash === address) return;
    if (push) history.pushState(null, "", address); else history.replaceState(null, "", address);
  },
};

export const Views = ["inbox", "phone", "devices", "channels", "faults", "providers", "send", "clock"];

export function show(view, argument, push = false) {
  for (const button of $$("nav button")) {
    if (button.dataset.view === view) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  for (const section of $$("main > .view")) section.hidden = section.id !== `view-${view}`;
  Route.view = view;
  if (view === "phone" && argument) Route.device = argument;
  Route.write(push);
  const enter = {
    phone: () => Phone.open(Route.device), devices: Devices.load, channels: Channels.load, faults: Faults.load,
    providers: () => Providers.load(), clock: Clock.load, send: Send.prefill,
  };
  enter[view]?.();
}
