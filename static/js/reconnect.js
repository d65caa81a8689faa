// Every live socket on the site (tables, lobby listings, waiting rooms) comes
// back quickly after an outage: htmx-ext-ws's default waits up to 64 s between
// tries. Here a try follows after 0.25 s, 0.5 s, 1 s, 2 s, then every 3 s at
// most, each with jitter (half to all of the step) so a restarted server is
// not met by every client at once. While a socket is down the page says so.
(function () {
  "use strict";
  var CAP_MS = 3000;
  var FIRST_MS = 250;

  function reconnectDelay(retryCount) {
    var step = Math.min(CAP_MS, FIRST_MS * Math.pow(2, retryCount));
    return step / 2 + Math.random() * step / 2;
  }

  function configure() {
    if (window.htmx) { window.htmx.config.wsReconnectDelay = reconnectDelay; }
  }

  // What a closed socket means for the page. htmx-ext-ws tries again only after an
  // abnormal close (1006, 1011, 1012, 1013); the server's own closes are final:
  // 4401 the session ended (logout, password change, ban), 4429 a cap on open
  // sockets (docs/operations.md "Socket caps").
  var RETRIED = [1006, 1011, 1012, 1013];
  function closedText(code) {
    if (RETRIED.indexOf(code) >= 0) { return "Connection lost — reconnecting…"; }
    if (code === 4401) { return "You are signed out here: this page no longer updates. Log in and reload it."; }
    if (code === 4429) { return "Too many tabs open: this one no longer updates. Close some, then reload it."; }
    return "This page no longer updates: reload it to go on.";
  }
  window.pigParlorClosedText = closedText;

  // Pages without a status line of their own (the table page has #table-connection)
  // get one banner, announced politely, while any of their sockets is down.
  var down = new Map();
  var banner = null;

  function showBanner(text) {
    if (document.getElementById("table-connection")) { return; }
    if (!banner) {
      banner = document.createElement("p");
      banner.className = "socket-banner";
      banner.setAttribute("role", "status");
      document.body.appendChild(banner);
    }
    banner.textContent = down.size ? text || Array.from(down.values()).pop() : "";
    banner.hidden = !down.size;
  }

  document.addEventListener("htmx:wsClose", function (event) {
    var close = event.detail && event.detail.event;
    var text = closedText(close ? close.code : 1006);
    down.set(event.target, text);
    showBanner(text);
  });
  document.addEventListener("htmx:wsOpen", function (event) {
    down.delete(event.target);
    showBanner();
  });

  configure();
  document.addEventListener("DOMContentLoaded", configure);
})();
