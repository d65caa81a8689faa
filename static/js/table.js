// The table page's client: countdowns, the socket's queue, version gaps, announcements.
//
// - htmx-ext-ws queues messages sent while the socket is down and replays them on
//   reconnect; a late click must not fire seconds later, so the queue is dropped
//   when the socket (re)opens. A new socket gets a full snapshot from the server.
// - Every frame carries #table-version with data-version and data-base (the
//   version the frame's changes build on; empty for a full snapshot). If the base
//   is not the version this page holds, a frame went missing: ask for a snapshot.
// - A part with no place on the page (the game's parts, when the page was
//   opened before the table started) means the layout changed: reload.
// - New event-log lines (data-n above the last announced) are read out through a
//   polite live region that is never swapped.
(function () {
  "use strict";
  var page = document.getElementById("table-page");
  if (!page) { return; }
  var socketElt = document.getElementById("table-socket");
  var announcer = document.getElementById("table-announce");
  var status = document.getElementById("table-connection");
  var held = Number(document.getElementById("table-version").dataset.version);
  var lastAnnounced = highestLogNumber();
  var socket = null;

  function highestLogNumber() {
    var items = document.querySelectorAll("#table-log [data-n]");
    var top = -1;
    items.forEach(function (item) { top = Math.max(top, Number(item.dataset.n)); });
    return top;
  }

  function announceNewLines() {
    var lines = [];
    document.querySelectorAll("#table-log [data-n]").forEach(function (item) {
      if (Number(item.dataset.n) > lastAnnounced) { lines.push(item.textContent.trim()); }
    });
    lastAnnounced = Math.max(lastAnnounced, highestLogNumber());
    if (lines.length) { announcer.textContent = lines.join(". "); }
  }

  function tick() {
    document.querySelectorAll(".countdown[data-deadline-ms]").forEach(function (elt) {
      var left = Math.max(0, Number(elt.dataset.deadlineMs) - Date.now());
      var seconds = Math.ceil(left / 1000);
      elt.textContent = seconds + "s";
      elt.classList.toggle("countdown--low", seconds <= 5);
    });
  }

  function sendRaw(message) {
    if (socket) { socket.send(JSON.stringify(message)); }
  }

  socketElt.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    socket.queue.length = 0;
    status.textContent = "";
    page.classList.remove("is-offline");
  });

  socketElt.addEventListener("htmx:wsClose", function () {
    status.textContent = "Connection lost — reconnecting…";
    page.classList.add("is-offline");
  });

  socketElt.addEventListener("htmx:wsAfterMessage", function (event) {
    socket = event.detail.socketWrapper;
    var marker = document.getElementById("table-version");
    var ping = document.getElementById("table-ping");
    if (ping && ping.dataset.ping) {
      sendRaw({type: "pong", id: Number(ping.dataset.ping)});
      delete ping.dataset.ping;
    }
    // Only a frame that brought a new marker is checked: a ping frame leaves the
    // old one in place, whose base is (rightly) not the version now held.
    if (marker && marker.dataset.version && !marker.dataset.checked) {
      marker.dataset.checked = "1";
      var base = marker.dataset.base;
      if (base !== "" && Number(base) !== held) {
        sendRaw({type: "snapshot"});
      }
      held = Number(marker.dataset.version);
    }
    announceNewLines();
    tick();
  });

  var reloading = false;
  document.body.addEventListener("htmx:oobErrorNoTarget", function () {
    if (!reloading) { reloading = true; window.location.reload(); }
  });

  tick();
  window.setInterval(tick, 250);
})();
