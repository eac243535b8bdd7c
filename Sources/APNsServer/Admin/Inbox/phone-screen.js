// The phone view's bubbles and the user's answers to them.
import { $, api, clock, el, say } from "./core.js";
import { Phone } from "./phone.js";

Object.assign(Phone, {
  /// A bubble for what was not presented: a Live Activity push (what it did to the activity, and
  /// the alert it lit the screen with), or a notification that was not shown (silent, a badge).
  unshown(item, when) {
    const p = item.presentation;
    if (!p) {
      const aps = item.payload?.aps || {};
      const alert = aps.alert && typeof aps.alert === "object" ? [aps.alert.title, aps.alert.body].filter(Boolean).join(": ") : "";
      const outcome = item.phoneOutcome || { state: "none", text: "" };
      return el("article", { class: `bubble activity-push ${outcome.state}`, "data-id": item.uniqueId, "data-testid": "phone-notification" },
        el("header", {}, el("span", {}, "Live Activity"), el("span", {}, when)),
        el("div", { class: "title" }, alert || `${aps.event || "push"}${aps["attributes-type"] ? ` · ${aps["attributes-type"]}` : ""}`),
        el("div", { class: "meta" }, outcome.text, item.activity?.reason ? ` — ${item.activity.reason}` : ""));
    }
    const badged = p.badge !== null && p.badge !== undefined;
    const why = Object.entries(p.suppressed || {}).map(([what, reason]) => `${what}: ${reason}`).join("; ");
    return el("article", { class: "bubble silent", "data-id": item.uniqueId, "data-testid": "phone-notification" },
      el("header", {}, el("span", {}, item.topic || ""), el("span", {}, when)),
      el("div", { class: "title" }, p.webPush ? `Web push: ${p.webPush.outcome}` : p.silent ? "Silent notification"
        : badged ? `Badge set to ${p.badge}` : "Not shown"),
      el("div", { class: "meta" }, p.webPush ? p.webPush.detail : badged ? "no alert: the app's icon shows the number" : p.appNotified ? "the app was told" : "", why ? ` ${why}` : ""));
  },

  /// Under a presented notification: the user's response, or the buttons to give one.
  controls(item, p, actions, onScreen) {
    const controls = [];
    const responded = item.response;
    if (responded) {
      controls.push(el("div", { class: "responded" }, `Responded: ${responded.action}${responded.text ? ` “${responded.text}”` : ""}`));
    } else if (onScreen && p.heldBy === "provisional" && item.token) {
      // iOS's choice on a provisional notification: keep the app's notifications (delivered
      // prominently from now on) or turn them off.
      const row = el("div", { class: "actions", "data-testid": "provisional-choice" });
      row.append(el("button", { type: "button", "data-action": "keep", onclick: () => this.provisional(item.token, true) }, "Keep"));
      row.append(el("button", { type: "button", class: "destructive", "data-action": "turn-off", onclick: () => this.provisional(item.token, false) }, "Turn Off"));
      controls.push(row);
    } else if (onScreen) {
      const row = el("div", { class: "actions" });
      row.append(el("button", { type: "button", "data-action": "default", onclick: () => this.respond(item.uniqueId, "default") }, "Open"));
      for (const action of actions) {
        const destructive = (action.options || []).includes("destructive");
        row.append(el("button", {
          type: "button", class: destructive ? "destructive" : null, "data-action": action.identifier,
          onclick: (event) => action.textInput ? this.reply(event.target, item.uniqueId, action) : this.respond(item.uniqueId, action.identifier),
        }, action.title));
      }
      row.append(el("button", { type: "button", "data-action": "dismiss", onclick: () => this.respond(item.uniqueId, "dismiss") }, "Dismiss"));
      controls.push(row);
    }
    return controls;
  },

  bubble(item, onScreen) {
    const p = item.presentation;
    const when = clock(item.receivedAt);
    if (!p || !p.shown) return this.unshown(item, when);
    const meta = [];
    if (p.sound) meta.push(`sound: ${p.sound}`);
    for (const [what, reason] of Object.entries(p.suppressed || {})) meta.push(`${what} suppressed: ${reason}`);
    for (const note of p.notes || []) meta.push(note);
    if (p.webPush?.vapidSubject) meta.push(`web push from ${p.webPush.vapidSubject}`);
    if (p.webPush?.navigate) meta.push(`opens ${p.webPush.navigate}`);
    const actions = p.style === "alert" ? p.actions || [] : p.minimalActions || [];
    const controls = this.controls(item, p, actions, onScreen);
    const level = this.level(p);
    // A summary's notifications are dimmed while they wait for it, not once it is presented.
    const quiet = p.deliveredQuietly && !(p.heldBy === "summary" && p.summaryPresented);
    return el("article", { class: `bubble${quiet ? " quiet" : ""}`, "data-id": item.uniqueId, "data-testid": "phone-notification" },
      el("header", {}, el("span", {}, (item.topic || "").replace(/\.push-type\.[a-z]+$/, "")), el("span", {}, p.badge !== null && p.badge !== undefined ? el("span", { class: "badge", title: "badge" }, p.badge) : "", " ", when)),
      level ? el("div", { class: "level", "data-testid": "phone-level" }, level) : null,
      p.communication ? el("div", { class: "sender", "data-testid": "phone-sender" },
        el("span", { class: "avatar", title: p.communication.sender.handle }, (p.communication.sender.displayName || "?").slice(0, 1).toUpperCase()),
        p.communication.groupName ? `${p.communication.sender.displayName} · ${p.communication.groupName}` : p.communication.sender.displayName) : null,
      p.title ? el("div", { class: "title" }, p.title) : null,
      p.subtitle ? el("div", { class: "subtitle" }, p.subtitle) : null,
      p.body ? el("div", { class: "body" }, p.body) : null,
      this.extension(p.serviceExtension),
      meta.length ? el("div", { class: "meta" }, meta.join(" · ")) : null,
      controls);
  },

  /// What the app's service extension did: its content is what the bubble shows, the original
  /// beside it; or why the original is shown.
  extension(report) {
    if (!report) return null;
    const original = [report.original.title, report.original.subtitle, report.original.body].filter(Boolean).join(" — ");
    const said = {
      modified: `Changed by the service extension (${report.kind}, ${report.tookMs} ms)`,
      timeWillExpire: `Service extension out of time after ${report.tookMs} ms: the original is shown`,
      failed: `Service extension failed: the original is shown`,
    }[report.outcome] || report.outcome;
    const attached = (report.attachments || []).map((a) => a.accepted ? `attached ${a.identifier || a.url} (${a.kind})` : `not attached: ${a.reason}`);
    return el("div", { class: `extension ${report.outcome}`, "data-testid": "phone-extension" },
      el("div", {}, said),
      report.outcome === "modified" ? el("div", { class: "original" }, `Original: ${original}`) : null,
      report.outcome === "failed" && report.reason ? el("div", { class: "original" }, report.reason) : null,
      attached.length ? el("div", { class: "original" }, attached.join(" · ")) : null);
  },

  /// Keep (delivered prominently from now on) or Turn Off, on a provisional notification.
  async provisional(token, keep) {
    try {
      const app = await api("GET", `/api/v1/devices/${token}/app`);
      const authorization = keep ? { ...app.authorization, status: "authorized" } : { status: "denied", alert: false, sound: false, badge: false };
      await api("PUT", `/api/v1/devices/${token}/app`, { authorization });
      say($("#app-answer"), keep ? "Kept: the app's notifications are delivered prominently" : "Turned off: the app's notifications are off", true);
    } catch (error) {
      say($("#app-answer"), error.message, false);
    }
    await this.refresh();
  },

  /// How it interrupted, as iOS labels it (Time Sensitive, Critical), and what held it quiet or
  /// what it broke through; nothing for an active notification presented as usual.
  level(p) {
    const words = [];
    if (p.interruptionLevel === "time-sensitive") words.push("Time Sensitive");
    if (p.interruptionLevel === "critical") words.push("Critical");
    if (p.brokeThrough) words.push("broke through Focus");
    const at = p.summaryAt ? new Date(p.summaryAt).toLocaleTimeString([], { hour12: false, hour: "2-digit", minute: "2-digit" }) : "its next time";
    if (p.heldBy === "summary" && p.summaryPresented) {
      words.push(`In the Scheduled Summary of ${at}`);
    } else if (p.deliveredQuietly) {
      const by = { focus: "held by Focus", focusFilter: "held by the app's Focus filter", summary: `held for the Scheduled Summary at ${at}`, provisional: "provisional: Keep or Turn Off" }[p.heldBy] || "passive";
      words.push(`Delivered quietly · ${by}`);
    }
    return words.join(" · ");
  },

  reply(button, uniqueId, action) {
    const input = el("input", { "aria-label": action.textInput.placeholder || "Reply", placeholder: action.textInput.placeholder || "" });
    const send = el("button", { type: "submit" }, action.textInput.buttonTitle || "Send");
    const form = el("form", { class: "reply", onsubmit: (event) => { event.preventDefault(); this.respond(uniqueId, action.identifier, input.value); } }, input, send);
    button.closest(".bubble").append(form);
    input.focus();
  },

  async respond(uniqueId, action, text) {
    const body = { action };
    if (text !== undefined) body.text = text;
    try {
      await api("POST", `/api/v1/notifications/${uniqueId}/respond`, body);
    } catch (error) {
      say($("#app-answer"), error.message, false);
    }
    await this.refresh();
  },

  fill(app) {
    const form = $("#app-form");
    const authorization = app?.authorization || { status: "notDetermined", alert: false, sound: false, badge: false, timeSensitive: true, directMessages: true };
    form.status.value = authorization.status;
    for (const name of ["alert", "sound", "badge", "timeSensitive", "criticalAlert", "scheduledDelivery", "directMessages"]) form[name].checked = !!authorization[name];
    form.alertStyle.value = app?.alertStyle || "banner";
    form.appState.value = app?.appState || "notRunning";
    if (document.activeElement !== form.language) form.language.value = app?.language || "en";
    for (const box of form.querySelectorAll("input[data-surface]")) box.checked = (app?.pairedSurfaces || []).includes(box.dataset.surface);
    if (document.activeElement !== form.categories) form.categories.value = JSON.stringify(app?.categories || [], null, 2);
  },

  async save(event) {
    event.preventDefault();
    const form = event.target;
    const answer = $("#app-answer");
    if (!this.token) return say(answer, "Choose a device first (the picker above), or register one with POST /api/v1/devices.", false);
    let categories;
    try { categories = JSON.parse(form.categories.value || "[]"); } catch (error) { return say(answer, `Categories are not JSON: ${error.message}`, false); }
    const body = {
      authorization: Object.fromEntries([["status", form.status.value],
        ...["alert", "sound", "badge", "timeSensitive", "criticalAlert", "scheduledDelivery", "directMessages"].map((name) => [name, form[name].checked])]),
      alertStyle: form.alertStyle.value, appState: form.appState.value, language: form.language.value || "en", categories,
      pairedSurfaces: [...form.querySelectorAll("input[data-surface]")].filter((box) => box.checked).map((box) => box.dataset.surface),
    };
    try {
      await api("PUT", `/api/v1/devices/${this.token}/app`, body);
      say(answer, "Saved.", true);
      await this.refresh();
    } catch (error) {
      say(answer, error.message, false);
    }
  },
});
