// The providers' report cards.
import { $, api, el } from "./core.js";

// MARK: Providers

/// The report card of each provider the HTTP/2 provider API has seen (GET /api/v1/providers and
/// each one's report): a verdict per check, what was seen, the requests concerned (each a link to
/// the inbox searching for its apns-id) and the rule's source.
export const Providers = {
  async load() {
    const list = await api("GET", "/api/v1/providers").catch(() => ({ items: [] }));
    const reports = await Promise.all(list.items.map((p) => api("GET", `/api/v1/providers/${encodeURIComponent(p.id)}/report`).catch(() => null)));
    const cards = reports.filter(Boolean).map((report) => this.card(report));
    $("#providers").replaceChildren(...(cards.length ? cards : [el("p", { class: "hint" }, "No provider has sent a request to the HTTP/2 provider API yet.")]));
  },

  card(report) {
    const p = report.provider;
    const who = p.kind === "token" ? `team ${p.teamId}, key ${p.keyId}` : p.kind === "certificate" ? `certificate ${p.subject}` : `no credentials, from ${p.peer}`;
    const rows = report.checks.map((check) => el("tr", { "data-check": check.id, class: `verdict-${check.verdict}` },
      el("td", {}, el("span", { class: `verdict ${check.verdict}` }, { pass: "Pass", fail: "Fail", notSeen: "Not seen" }[check.verdict] || check.verdict)),
      el("th", { scope: "row", class: "mono" }, check.id),
      el("td", {}, el("p", { class: "said" }, check.evidence.summary),
        check.evidence.apnsIds.length ? el("p", { class: "evidence" }, "Requests: ",
          ...check.evidence.apnsIds.slice(0, 8).flatMap((id, n) => [n ? ", " : "", el("a", { href: `/?q=${encodeURIComponent(id)}`, class: "mono", title: `Open ${id} in the inbox` }, `…${id.slice(-8)}`)])) : null,
        el("p", { class: "source" }, check.source))));
    return el("article", { class: "provider-card", "data-provider": p.id },
      el("header", {}, el("h3", { class: "mono" }, p.id), el("span", { class: `verdict ${report.verdict}` }, report.verdict === "pass" ? "Passes" : "Fails")),
      el("p", { class: "hint" }, `${who} · ${p.requests} requests over ${p.connections} connection${p.connections === 1 ? "" : "s"} · ${p.tokens} provider token${p.tokens === 1 ? "" : "s"}${report.exam ? " · exam on" : ""}`),
      el("table", { class: "list checks" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Verdict"), el("th", { scope: "col" }, "Check"), el("th", { scope: "col" }, "What was seen"))),
        el("tbody", {}, ...rows)));
  },
};
