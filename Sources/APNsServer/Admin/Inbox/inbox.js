// The web inbox: every notification live from the admin API's event stream, its detail, the
// phone's rendering of it, load at a glance, and the controls (devices, faults, clock, send,
// reset). Native ES modules, one per view, no dependencies; everything it shows comes from
// /api/v1 and /metrics. This module starts the page.
import { Clock } from "./clock.js";
import { Detail } from "./detail.js";
import { Devices } from "./devices.js";
import { $, $$ } from "./core.js";
import { Faults } from "./faults.js";
import { Inbox } from "./list.js";
import { Live } from "./live.js";
import { Load } from "./load.js";
import { Phone } from "./phone.js";
import { Route, show } from "./route.js";
import { Search } from "./search.js";
import { Send } from "./send.js";
import "./phone-screen.js";

// MARK: Start

/// The list: the search and its widgets, older rows as it scrolls, the newer-rows line.
function wireList() {
  // Filters and search run on the server: a quarter of a second after the last key. The box and
  // the widgets stay in step (Search); a change from a script or the keyboard counts as typing.
  const filtered = (event) => {
    const form = $("#filters");
    if (event.target.name === "q") Search.showIn(form); else if (event.target.name) Search.follow(form, event.target);
    clearTimeout(Inbox.typing);
    Inbox.typing = setTimeout(() => { Route.write(true); Inbox.load(false); }, 250);
  };
  $("#filters").addEventListener("input", filtered);
  $("#filters").addEventListener("change", filtered);
  $("#inbox-more").addEventListener("click", () => Inbox.more());
  $("#inbox-newer").addEventListener("click", () => { $("#list-pane").scrollTop = 0; window.scrollTo(0, 0); Inbox.load(false); });
  // Older rows load as the list scrolls to its end (the pane on a wide screen, the page on a phone).
  const nearEnd = () => {
    const pane = $("#list-pane");
    const paneEnd = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 300 && pane.scrollHeight > pane.clientHeight;
    const pageEnd = document.documentElement.scrollHeight - window.scrollY - window.innerHeight < 300;
    if ((paneEnd || pageEnd) && !$("#view-inbox").hidden && !document.body.classList.contains("detail-open")) Inbox.more();
  };
  $("#list-pane").addEventListener("scroll", nearEnd, { passive: true });
  window.addEventListener("scroll", nearEnd, { passive: true });
  $("#filters").addEventListener("submit", (event) => event.preventDefault());
  // On a phone the widgets fold behind Filters: the box holds the same fields.
  $("#filters-toggle").addEventListener("click", (event) => {
    const open = $("#filters").classList.toggle("open");
    event.target.setAttribute("aria-expanded", String(open));
  });
}

/// The other views' controls.
function wireControls() {
  for (const button of $$("nav button")) button.addEventListener("click", () => show(button.dataset.view, undefined, true));
  $("#phone-device").addEventListener("change", (event) => show("phone", event.target.value, true));
  $("#phone-device-search").addEventListener("input", () => Phone.pick());
  $("#devices-search").addEventListener("input", () => Devices.render());
  $("#token-check").addEventListener("submit", (event) => Devices.check(event));
  $("#phone-app-pick").addEventListener("change", (event) => { Phone.token = event.target.value; Phone.refresh(); });
  $("#phone-refresh").addEventListener("click", () => Phone.open(Phone.device));
  $("#app-form").addEventListener("submit", (event) => Phone.save(event));
  $("#fault-form").addEventListener("submit", (event) => Faults.add(event));
  $("#send-form").addEventListener("submit", (event) => Send.send(event));
  $("#clock-form").addEventListener("submit", (event) => Clock.advance(event));
  $("#reset").addEventListener("click", (event) => Clock.reset(event));
}

/// The address and the history: the page opens where its URL says, and Back and Forward walk
/// the person's changes (the view, the search, the notification open); Esc closes the detail.
function wireHistory() {
  Route.read();
  show(Route.view, Route.device);
  if (Route.notification) Inbox.select(Route.notification, false);
  window.addEventListener("popstate", () => {
    Route.read();
    show(Route.view, Route.device);
    Inbox.load(false);
    if (Route.notification) Inbox.select(Route.notification, false);
    else if (!$("#detail").hidden) Detail.close(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("#detail").hidden) Detail.close(true);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  wireList();
  wireControls();
  Live.start();
  Load.start();
  // A page the browser keeps in its back/forward cache would keep its event stream open, and a
  // browser opens at most six connections to one host: after a few pages the next one waits for
  // ever. The stream closes as the page is left and opens again if it comes back.
  window.addEventListener("pagehide", () => Live.source?.close());
  window.addEventListener("pageshow", (event) => { if (event.persisted) Live.start(); });
  wireHistory();
});
