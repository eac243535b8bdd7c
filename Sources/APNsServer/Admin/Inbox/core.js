// What every view uses: element helpers, the admin API, and how times, tokens and statuses read.

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

/// An element with attributes and children (strings become text: nothing is parsed as HTML).
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/// A JSON request to the admin API; throws an Error with the API's own message on failure.
export async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["content-type"] = "application/json";
  }
  const response = await fetch(path, options);
  if (response.status === 401) {
    // The emulator asks for its admin token (restarted with another, or the cookie is gone): log in again.
    location.assign("/login?next=" + encodeURIComponent(location.pathname + location.search + location.hash));
  }
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!response.ok) {
    const error = new Error((json && json.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return json;
}

export function say(node, text, good) {
  node.textContent = text;
  node.classList.toggle("good", good === true);
  node.classList.toggle("bad", good === false);
}

// A request the provider got no success for: refused, or not processed (above a GOAWAY's last stream).
export const refused = (item) => item.status === "rejected" || item.status === "notProcessed";
/// A status as the badge reads it.
export const statusText = (status) => (status === "notProcessed" ? "not processed" : status);

/// The endpoint a push was sent to, as a person names it: Apple's host beside the environment.
export const environmentName = (item) =>
  !item.environment || item.source === "webpush"
    ? "–"
    : item.environment === "production" ? "production (api.push.apple.com)" : "sandbox (api.sandbox.push.apple.com)";

/// A row's environment badge: sandbox or production.
export const environmentTag = (environment) =>
  el("span", { class: `tag env ${environment}`, title: environmentName({ environment }), "data-testid": "inbox-environment-tag" },
    environment === "production" ? "production" : "sandbox");
/// Whether a device holds a token record (a token no device holds names itself `token:<hex>`
/// in its Live Activity tokens and web apps).
export const heldByDevice = (record) => Boolean(record.deviceId) && !record.deviceId.startsWith("token:");
/// A group's heading with its count, narrowed or not: `Devices (3)`, `Devices (1 of 3)`.
export const counted = (name, shown, total) => `${name} (${shown === total ? total : `${shown} of ${total}`})`;
export const short = (token) => (token && token.length > 12 ? token.slice(0, 8) + "…" : token || "–");
export const clock = (iso) => {
  if (!iso) return "–";
  const date = new Date(iso);
  return date.toLocaleTimeString([], { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
};
export const http2Port = () => $('meta[name="apns-http2-port"]')?.content || "2197";
/// The production endpoint's port (--production-http2-port).
export const productionPort = () => $('meta[name="apns-production-port"]')?.content || "2297";
// The CA the server certificate chains to, where this emulator keeps it (its --certs-dir).
export const caPath = () => $('meta[name="apns-ca-path"]')?.content || "ca.pem";
