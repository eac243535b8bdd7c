// The web inbox: every notification live from the admin API's event stream, its detail, the
// phone's rendering of it, load at a glance, and the controls (devices, faults, clock, send,
// reset). Native ES modules, one per view, no dependencies; everything it shows comes from
// /api/v1 and /metrics. This module starts the page.
import { Clock } from "./clock.js";
import { $, $$ } from "./core.js";
import { Faults } from "./faults.js";
import { Inbox } from "./list.js";
import { Live } from "./live.js";
import { Load } from "./load.js";
import { Phone } from "./phone.js";
import { Route, show } from "./route.js";
import { Send } from "./send.js";
import "./phone-screen.js";

// MARK: Start

document.addEventListener("DOMContentLoaded", () => {
  for (const button of $$("nav button")) button.addEventListener("click", () => show(button.dataset.view));
  // Filters and search run on the server: a quarter of a second after the last key.
  $("#filters").addEventListener("input", () => {
    clearTimeout(Inbox.typing);
    Inbox.typing = setTimeout(() => { Route.write(); Inbox.load(false); }, 250);
  });
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
  $("#phone-device").addEventListener("change", (event) => show("phone", event.target.value));
  $("#phone-app-pick").addEventListener("change", (event) => { Phone.token = event.target.value; Phone.refresh(); });
  $("#phone-refresh").addEventListener("click", () => Phone.open(Phone.device));
  $("#app-form").addEventListener("submit", (event) => Phone.save(event));
  $("#fault-form").addEventListener("submit", (event) => Faults.add(event));
  $("#send-form").addEventListener("submit", (event) => Send.send(event));
  $("#clock-form").addEventListener("submit", (event) => Clock.advance(event));
  $("#reset").addEventListener("click", (event) => Clock.reset(event));
  Live.start();
  Load.start();
  // A page the browser keeps in its back/forward cache would keep its event stream open, and a
  // browser opens at most six connections to one host: after a few pages the next one waits for
  // ever. The stream closes as the page is left and opens again if it comes back.
  window.addEventListener("pagehide", () => Live.source?.close());
  window.addEventListener("pageshow", (event) => { if (event.persisted) Live.start(); });
  Route.read();
  show(Route.view, Route.device);
  if (Route.notification) Inbox.select(Route.notification);
  window.addEventListener("popstate", () => { Route.read(); show(Route.view, Route.device); Inbox.load(false); });
});
