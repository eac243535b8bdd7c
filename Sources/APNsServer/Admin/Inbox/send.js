// Send: a push from the page.
import { $, api, say } from "./core.js";
import { Inbox } from "./list.js";

// MARK: Send

export const Send = {
  prefill() {
    const form = $("#send-form");
    const selected = Inbox.selected && Inbox.byId.get(Inbox.selected);
    if (!form.token.value && selected) form.token.value = selected.token;
    // A suggestion is a placeholder, not text that typing would append to: the topic is the
    // selected notification's, when there is one.
    if (!form.topic.value && selected && selected.topic) form.topic.value = selected.topic;
  },

  /// APNs' answer to a push from the page, as lines: status and reason, ids, detail, warnings.
  describe(result) {
    if (result.answered === false) return result.message;
    const lines = [`${result.status}${result.reason ? ` ${result.reason}` : " OK"}`];
    if (result.apnsId) lines.push(`apns-id: ${result.apnsId}`);
    if (result.uniqueId) lines.push(`apns-unique-id: ${result.uniqueId}`);
    if (result.detail) lines.push(result.detail);
    for (const warning of result.warnings || []) lines.push(`warning: ${warning}`);
    return lines.join("\n");
  },

  async send(event) {
    event.preventDefault();
    const form = event.target;
    const answer = $("#send-answer");
    // A payload that is not JSON goes as it is: APNs' answer to it is worth seeing too.
    let payload = form.payload.value;
    try { payload = JSON.parse(payload); } catch { /* sent as text */ }
    if (payload === null || typeof payload !== "object" || Array.isArray(payload)) payload = form.payload.value;
    const body = {
      token: form.token.value.trim(), topic: form.topic.value.trim() || undefined, pushType: form.pushType.value,
      priority: Number(form.priority.value), environment: form.environment.value || undefined, payload,
    };
    try {
      const result = await api("POST", "/api/v1/push", body);
      if (result.answered === false) return say(answer, result.message, null);
      say(answer, this.describe(result), result.status === 200);
    } catch (error) {
      say(answer, error.message, false);
    }
  },
};
