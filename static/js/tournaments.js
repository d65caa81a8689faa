// Tournament pages and the "your table is ready" banner (no inline script: the
// Content Security Policy forbids it, so templates mark elements instead):
//
// - [data-countdown="ISO time"]: "in 4:32", ticking each second, "starting…" at zero;
// - time[data-local="date|time|datetime"]: its text in the reader's own time zone;
// - button[data-enable-at="ISO time"]: enabled once that time comes (check-in);
// - button[data-dismiss="ID"]: empties #ID (the banner's "Later");
// - .ready-banner[data-table-path]: hidden on that table's own page;
// - the "Create a tournament" form: input[data-time-zone] gets the reader's time
//   zone (the start is typed in it), [data-time-zone-name] shows it, and an empty
//   input[data-local-input] starts at the next quarter hour at least 30 minutes ahead.
(function () {
  "use strict";

  function pad(number) { return (number < 10 ? "0" : "") + number; }

  function untilText(ms) {
    if (ms <= 0) { return "starting…"; }
    var seconds = Math.ceil(ms / 1000);
    var days = Math.floor(seconds / 86400);
    var hours = Math.floor(seconds % 86400 / 3600);
    var minutes = Math.floor(seconds % 3600 / 60);
    if (days) { return "in " + days + " d " + hours + " h"; }
    if (hours) { return "in " + hours + " h " + pad(minutes) + " min"; }
    return "in " + minutes + ":" + pad(seconds % 60);
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (element) {
      var at = Date.parse(element.dataset.countdown);
      if (!isNaN(at)) {
        var text = untilText(at - now);
        if (element.textContent !== text) { element.textContent = text; }
      }
    });
    document.querySelectorAll("button[data-enable-at]").forEach(function (button) {
      var at = Date.parse(button.dataset.enableAt);
      if (!isNaN(at) && now >= at) {
        button.disabled = false;
        button.removeAttribute("data-enable-at");
      }
    });
  }

  var FORMATS = {
    date: {day: "numeric", month: "short", year: "numeric"},
    time: {hour: "2-digit", minute: "2-digit"},
    datetime: {day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"}
  };

  function localTimes() {
    document.querySelectorAll("time[data-local]:not([data-localized])").forEach(function (element) {
      var at = new Date(element.getAttribute("datetime"));
      var format = FORMATS[element.dataset.local];
      if (isNaN(at.getTime()) || !format) { return; }
      element.textContent = at.toLocaleString(undefined, format);
      element.setAttribute("data-localized", "");
    });
  }

  function hideOwnTableBanner() {
    document.querySelectorAll(".ready-banner[data-table-path]").forEach(function (banner) {
      if (banner.dataset.tablePath === window.location.pathname) { banner.remove(); }
    });
  }

  function localInputValue(at) {
    return at.getFullYear() + "-" + pad(at.getMonth() + 1) + "-" + pad(at.getDate()) + "T" +
      pad(at.getHours()) + ":" + pad(at.getMinutes());
  }

  function createForm() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { zone = ""; }
    if (!zone) { return; }
    document.querySelectorAll("input[data-time-zone]").forEach(function (input) { input.value = zone; });
    document.querySelectorAll("[data-time-zone-name]").forEach(function (element) { element.textContent = zone; });
    document.querySelectorAll("input[data-local-input]").forEach(function (input) {
      if (input.value) { return; }
      var quarter = 15 * 60 * 1000;
      input.value = localInputValue(new Date(Math.ceil((Date.now() + 30 * 60 * 1000) / quarter) * quarter));
    });
  }

  function refresh() {
    localTimes();
    hideOwnTableBanner();
    tick();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-dismiss]");
    var target = button && document.getElementById(button.dataset.dismiss);
    if (target) { target.replaceChildren(); }
  });

  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("DOMContentLoaded", createForm);
  document.addEventListener("htmx:wsAfterMessage", refresh);
  window.setInterval(tick, 1000);
})();
