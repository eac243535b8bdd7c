// The emulator's clock, and reset.
import { $, api, say } from "./core.js";

// MARK: Clock and reset


export const Clock = {
  async load() {
    try {
      const now = await api("GET", "/api/v1/clock");
      $("#clock-now").textContent = now.now;
      $("#clock-real").textContent = now.real;
      $("#clock-offset").textContent = now.offset;
    } catch (error) {
      say($("#clock-answer"), error.message, false);
    }
  },

  async advance(event) {
    event.preventDefault();
    try {
      await api("POST", "/api/v1/clock", { advance: event.target.advance.value.trim() });
      say($("#clock-answer"), "Moved.", true);
    } catch (error) {
      say($("#clock-answer"), error.message, false);
    }
    await this.load();
  },

  /// Reset asks twice: the first press arms it for five seconds.
  async reset(event) {
    const button = event.target;
    if (!button.dataset.armed) {
      button.dataset.armed = "1";
      button.textContent = "Press again to reset everything";
      setTimeout(() => { delete button.dataset.armed; button.textContent = "Reset the emulator"; }, 5000);
      return;
    }
    delete button.dataset.armed;
    button.textContent = "Reset the emulator";
    try {
      await api("POST", "/api/v1/reset");
      say($("#clock-answer"), "Reset.", true);
    } catch (error) {
      say($("#clock-answer"), error.message, false);
    }
    await this.load();
  },
};
