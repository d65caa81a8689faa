// The table page's client: countdowns, the socket's queue, version gaps, announcements.
//
// - htmx-ext-ws queues messages sent while the socket is down and replays them on
//   reconnect; a late click must not fire seconds later, so the queue is dropped
//   when the socket reopens. A move made before the first open (the page is new, its
//   socket still connecting) goes out when it opens. A new socket gets a full snapshot.
// - Every frame carries #table-version with data-version and data-base (the
//   version the frame's changes build on; empty for a full snapshot). If the base
//   is not the version this page holds, a frame went missing: ask for a snapshot.
// - A part with no place on the page (the game's parts, when the page was
//   opened before the table started) means the layout changed: reload.
// - New event-log lines (data-n above the last announced) are read out through a
//   polite live region that is never swapped.
// - The log lists the newest line first. A reader who scrolled down it keeps
//   their place when lines arrive; one at the top sees each new line.
// - Follow the game: a change made by someone else stays on screen at least
//   data-min-show-ms (turn-based games) before the next one is shown; frames
//   that arrive sooner wait their turn, in order. Acting yourself, or a hidden
//   tab, shows everything at once.
// - The seat that moved last (#table-players .moved-last) is marked on the
//   game's board too: every top-level [data-seat] element of that seat gets
//   .is-last-mover and a badge with its last action, until the next move.
// - A part that arrives unchanged is not swapped (see the oobBeforeSwap handler).
// - A press holds frames (turn-based games): while a finger or the mouse is down on
//   a control of the board, or Space or Enter is down on a focused one, frames wait
//   and are shown once the press has ended (its click dispatched), in order. A frame
//   that replaced the control between down and up lost the tap: the up landed on
//   its twin, so no click. site.js tracks the press for every live area
//   (window.pigParlorPress, 1 s at most; none in a real-time game); this page's socket
//   is data-paced, so its frames wait here, in the same queue as the pacing.
// - The dock: on your move a game keeps the parts you act with (the prompt, the hand)
//   at the bottom edge of the screen (its CSS makes them position: sticky; bottom: 0,
//   docs/platform.md §5). Several docked parts stack: each one's bottom offset is the
//   height of the docked parts shown below it, set here after every frame and whenever
//   a docked part changes size (a picked card opens its counts). The offsets live in a
//   stylesheet of this page's own (CSSOM, by each part's id), never in a style attribute:
//   htmx copies attributes from an old part to its replacement, and a style attribute
//   written that way is an inline style the Content Security Policy blocks.
// - Focus survives a frame (site.js, for every live area): a frame swaps whole parts of
//   the board, so the focused control is replaced by its twin, which gets the focus back.
//   Without it the socket's first frame, which redraws the page just served, threw a
//   keyboard player's focus off the card they had tabbed to.
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
  var minShowMs = Number(page.dataset.minShowMs || 0);
  var waiting = [];
  var shownAt = 0;
  var releaseTimer = null;
  var presses = window.pigParlorPress;

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
    // One sentence per line: a line that already ends a sentence gets no second full stop.
    if (lines.length) {
      announcer.textContent = lines.map(function (line) { return /[.!?…]$/.test(line) ? line : line + "."; }).join(" ");
    }
  }

  function markLastMover() {
    document.querySelectorAll("#table-socket .is-last-mover").forEach(function (elt) {
      elt.classList.remove("is-last-mover");
    });
    document.querySelectorAll("#table-socket .last-move").forEach(function (elt) { elt.remove(); });
    var mover = document.querySelector("#table-players .moved-last");
    if (!mover) { return; }
    var seat = mover.dataset.seat;
    var last = mover.querySelector(".player__last");
    document.querySelectorAll('#table-socket [data-seat="' + seat + '"]').forEach(function (elt) {
      if (elt.closest("#table-players, #table-status") || elt.parentElement.closest('[data-seat="' + seat + '"]')) { return; }
      elt.classList.add("is-last-mover");
      if (last) {
        var badge = document.createElement("span");
        badge.className = "last-move";
        badge.setAttribute("aria-hidden", "true");  // the log's live region says it already
        badge.textContent = last.textContent;
        elt.appendChild(badge);
      }
    });
  }

  function isDocked(elt) {
    var style = window.getComputedStyle(elt);
    return style.position === "sticky" && style.top === "auto" && style.display !== "none";
  }

  var dockWatch = window.ResizeObserver ? new window.ResizeObserver(function () { dock(); }) : null;
  var docked = [];

  var dockSheet = null;
  var dockRules = "";
  if (window.CSSStyleSheet && "adoptedStyleSheets" in document) {
    try {
      dockSheet = new window.CSSStyleSheet();
      document.adoptedStyleSheets = document.adoptedStyleSheets.concat([dockSheet]);
    } catch (error) { dockSheet = null; }  // an old browser: the parts dock, unstacked
  }

  function dock() {
    var parts = Array.prototype.slice.call(socketElt.children);
    var now = parts.filter(function (elt) { return elt.id && isDocked(elt); }).map(function (elt, index) {
      return {elt: elt, order: Number(window.getComputedStyle(elt).order) || 0, index: index};
    }).sort(function (a, b) { return a.order - b.order || a.index - b.index; }).map(function (item) { return item.elt; });
    var below = 0;
    var rules = "";
    for (var i = now.length - 1; i >= 0; i--) {
      if (below) { rules += "#table-socket > #" + window.CSS.escape(now[i].id) + " { bottom: " + below + "px !important; }\n"; }
      below += now[i].offsetHeight;
    }
    if (dockSheet && rules !== dockRules) {
      dockSheet.replaceSync(rules);
      dockRules = rules;
    }
    if (dockWatch && (now.length !== docked.length || now.some(function (elt, i) { return elt !== docked[i]; }))) {
      dockWatch.disconnect();
      now.forEach(function (elt) { dockWatch.observe(elt); });
    }
    docked = now;
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

  var opened = false;
  socketElt.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    // Only a reopen drops the queue: a move made before the page's first socket opened (a slow
    // connection) was made on this page's version, and goes out now; the server refuses it if stale.
    if (opened) { socket.queue.length = 0; }
    opened = true;
    // Before the deal, a seated player's browser adds its own random salt to it (docs/fairness.md).
    var turn = document.getElementById("table-turn");
    if (page.dataset.seat !== "" && turn && turn.dataset.status === "open" && window.pigParlorSalt) {
      sendRaw({type: "salt", salt: window.pigParlorSalt()});
    }
    status.textContent = "";
    page.classList.remove("is-offline");
  });

  socketElt.addEventListener("htmx:wsClose", function (event) {
    var close = event.detail && event.detail.event;
    status.textContent = window.pigParlorClosedText(close ? close.code : 1006);
    page.classList.add("is-offline");
  });

  // The log keeps its element (and so its scroll) when a frame brings new lines:
  // the lines are replaced inside it, and a reader who scrolled down keeps the
  // line they were reading where it was.
  function lineAtTop(log) {
    if (log.scrollTop <= 2) { return null; }
    var top = log.getBoundingClientRect().top;
    var line = Array.prototype.find.call(log.children, function (item) {
      return item.getBoundingClientRect().bottom > top + 1;
    });
    return line ? {n: line.dataset.n, offset: line.getBoundingClientRect().top - top} : null;
  }

  // A part that arrives exactly as it already is on the page is left alone. The
  // socket's first frame redraws the page just served; replacing identical controls
  // dropped a key press half-way (Space's keyup landed on the new twin: no click).
  // The version marker and the ping are always swapped: their arrival is the news.
  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fragment = event.detail.fragment;
    if (!target || !fragment || !event.detail.shouldSwap || target.id === "table-version" || target.id === "table-ping") { return; }
    var fresh = fragment.childNodes.length === 1 ? fragment.firstChild : null;
    if (fresh && fresh.nodeType === 1 && fresh.isEqualNode(target)) { event.detail.shouldSwap = false; }
  });

  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var log = event.detail.target;
    var fresh = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (!log || log.id !== "table-log" || !fresh || fresh.id !== "table-log") { return; }
    var anchor = lineAtTop(log);
    log.replaceChildren.apply(log, Array.prototype.slice.call(fresh.childNodes));
    event.detail.shouldSwap = false;
    var line = anchor && log.querySelector('[data-n="' + anchor.n + '"]');
    if (line) {
      log.scrollTop += line.getBoundingClientRect().top - log.getBoundingClientRect().top - anchor.offset;
    }
  });

  function isFrame(message) {
    return typeof message === "string" && message.indexOf('id="table-version"') !== -1;
  }

  function show(message) {
    presses.swap(socketElt, message, socket);
  }

  function release() {
    releaseTimer = null;
    while (waiting.length && !presses.on(socketElt)) {
      var wait = minShowMs - (Date.now() - shownAt);
      if (wait > 0 && !document.hidden) {
        releaseTimer = window.setTimeout(release, wait);
        return;
      }
      show(waiting.shift());  // its wsAfterMessage notes when it was shown
    }
  }

  function showEverything() {
    if (releaseTimer !== null) { window.clearTimeout(releaseTimer); releaseTimer = null; }
    while (waiting.length) { show(waiting.shift()); }
  }

  presses.onEnd(function () { if (releaseTimer === null) { release(); } });

  socketElt.addEventListener("htmx:wsBeforeMessage", function (event) {
    socket = event.detail.socketWrapper;
    var message = event.detail.message;
    if (!isFrame(message)) { return; }  // an error or a ping: at once
    if (!document.hidden && (presses.on(socketElt) || waiting.length ||
                             (minShowMs > 0 && Date.now() - shownAt < minShowMs))) {
      event.preventDefault();
      waiting.push(message);
      if (releaseTimer === null) { release(); }
      return;
    }
  });

  document.body.addEventListener("htmx:wsBeforeSend", showEverything);
  document.addEventListener("visibilitychange", function () { if (document.hidden) { showEverything(); } });

  socketElt.addEventListener("htmx:wsAfterMessage", function (event) {
    dock();  // before the time is noted: it reads the new parts' styles, a moment under load
    if (event.detail.socketWrapper) { socket = event.detail.socketWrapper; }
    // Counted from when the change is on the page: under load a swap itself takes time.
    if (isFrame(event.detail.message)) { shownAt = Date.now(); }
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
    markLastMover();
    tick();
  });

  var reloading = false;
  document.body.addEventListener("htmx:oobErrorNoTarget", function () {
    if (!reloading) { reloading = true; window.location.reload(); }
  });

  // "Leave table" opens its dialog, which says what leaving costs (templates/tables/_leave.html).
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".leave-open") : null;
    var dialog = button && document.getElementById(button.getAttribute("aria-controls"));
    if (dialog) { event.preventDefault(); dialog.showModal(); }
  });

  markLastMover();
  dock();
  window.addEventListener("resize", dock);
  tick();
  window.setInterval(tick, 250);
})();
