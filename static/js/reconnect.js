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

  // Pages without a status line of their own (the table page has #table-connection)
  // get one banner, announced politely, while any of their sockets is down.
  var down = new Set();
  var banner = null;

  function showBanner() {
    if (document.getElementById("table-connection")) { return; }
    if (!banner) {
      banner = document.createElement("p");
      banner.className = "socket-banner";
      banner.setAttribute("role", "status");
      document.body.appendChild(banner);
    }
    banner.textContent = down.size ? "Connection lost — reconnecting…" : "";
    banner.hidden = !down.size;
  }

  document.addEventListener("htmx:wsClose", function (event) {
    down.add(event.target);
    showBanner();
  });
  document.addEventListener("htmx:wsOpen", function (event) {
    down.delete(event.target);
    showBanner();
  });

  configure();
  document.addEventListener("DOMContentLoaded", configure);
})();
