// The load chart.
import { $ } from "./core.js";

// MARK: Load chart (from /metrics)

export const Load = {
  previous: null,
  points: [],
  size: 120,

  parse(text) {
    const totals = { accepted: 0, rejected: 0, sum: 0, count: 0, buckets: new Map() };
    for (const line of text.split("\n")) {
      if (!line || line.startsWith("#")) continue;
      const match = /^([a-z_]+)(\{[^}]*\})?\s+(\S+)/.exec(line);
      if (!match) continue;
      const [, name, labels = "", raw] = match;
      const value = Number(raw);
      if (!Number.isFinite(value)) continue;
      if (name === "apns_notifications_accepted_total") totals.accepted += value;
      else if (name === "apns_notifications_rejected_total") totals.rejected += value;
      else if (name === "apns_accept_latency_seconds_sum") totals.sum += value;
      else if (name === "apns_accept_latency_seconds_count") totals.count += value;
      else if (name === "apns_accept_latency_seconds_bucket") {
        const le = /le="([^"]+)"/.exec(labels)?.[1];
        if (le) totals.buckets.set(le, (totals.buckets.get(le) || 0) + value);
      }
    }
    return totals;
  },

  async tick() {
    let text;
    try {
      const response = await fetch("/metrics");
      text = await response.text();
    } catch {
      return;
    }
    const now = performance.now();
    const totals = this.parse(text);
    const previous = this.previous;
    this.previous = { at: now, totals };
    if (!previous) return;
    const seconds = Math.max((now - previous.at) / 1000, 0.001);
    // Counters only grow, unless a reset zeroed them: then the new value is the change.
    const delta = (a, b) => (a >= b ? a - b : a);
    const count = delta(totals.count, previous.totals.count);
    const point = {
      accepted: delta(totals.accepted, previous.totals.accepted) / seconds,
      rejected: delta(totals.rejected, previous.totals.rejected) / seconds,
      mean: count > 0 ? delta(totals.sum, previous.totals.sum) / count : null,
      p99: null,
    };
    if (count > 0) {
      const bounds = Array.from(totals.buckets.keys()).sort((a, b) => (a === "+Inf" ? 1 : b === "+Inf" ? -1 : Number(a) - Number(b)));
      for (const le of bounds) {
        if (delta(totals.buckets.get(le), previous.totals.buckets.get(le) || 0) >= 0.99 * count) {
          point.p99 = le === "+Inf" ? null : Number(le);
          break;
        }
      }
    }
    this.points.push(point);
    if (this.points.length > this.size) this.points.shift();
    // Idle (nothing accepted or rejected for 30 s): the charts fold away, a line says so.
    const idle = this.points.slice(-30).every((p) => p.accepted === 0 && p.rejected === 0);
    // Unfolding would push the filters down under the pointer (or the caret): it waits until
    // the person has left them.
    const folded = $(".load").classList.contains("idle");
    const inUse = $("#filters").matches(":hover, :focus-within");
    if (idle || !folded || !inUse) {
      $(".load").classList.toggle("idle", idle);
      $("#load-idle").hidden = !idle;
    }
    $("#rate-accepted").textContent = point.accepted.toFixed(0);
    $("#rate-rejected").textContent = point.rejected.toFixed(0);
    const ms = (seconds) => (seconds === null ? "–" : `${(seconds * 1000).toFixed(seconds < 0.001 ? 2 : 1)} ms`);
    $("#latency-mean").textContent = ms(point.mean);
    $("#latency-p99").textContent = point.p99 === null ? "–" : `≤ ${ms(point.p99)}`;
    this.draw($("#rate-chart"), [["accepted", "--accepted"], ["rejected", "--rejected"]]);
    this.draw($("#latency-chart"), [["mean", "--accent"], ["p99", "--warn"]]);
  },

  draw(canvas, series) {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || 480;
    const height = canvas.clientHeight || 110;
    if (canvas.width !== Math.round(width * ratio)) canvas.width = Math.round(width * ratio);
    if (canvas.height !== Math.round(height * ratio)) canvas.height = Math.round(height * ratio);
    const context = canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    const style = getComputedStyle(document.documentElement);
    let top = 0;
    for (const [key] of series) for (const point of this.points) if (point[key] !== null) top = Math.max(top, point[key]);
    top = top > 0 ? top * 1.15 : 1;
    context.strokeStyle = style.getPropertyValue("--line");
    context.lineWidth = 1;
    context.beginPath();
    context.moveTo(0, height - 0.5);
    context.lineTo(width, height - 0.5);
    context.stroke();
    const step = width / (this.size - 1);
    const offset = this.size - this.points.length;
    for (const [key, color] of series) {
      context.strokeStyle = style.getPropertyValue(color).trim();
      context.lineWidth = 2;
      context.beginPath();
      let drawing = false;
      this.points.forEach((point, index) => {
        if (point[key] === null) { drawing = false; return; }
        const x = (offset + index) * step;
        const y = height - 2 - (point[key] / top) * (height - 8);
        if (drawing) context.lineTo(x, y); else context.moveTo(x, y);
        drawing = true;
      });
      context.stroke();
    }
  },

  start() {
    this.tick();
    setInterval(() => this.tick(), 1000);
  },
};
