// The chat panel: a player's name opens the mute/report dialog, a sent message
// clears the box, the list keeps to its newest lines and scrolls to them, and a
// timeout's status counts down. New lines are read out by the list's own
// polite live region (#chat-lines).
//
// On a table page narrower than the two columns the panel is a drawer: "Chat"
// (#chat-toggle) opens it, Close or Escape shuts it (the focus goes back to the
// button). The button counts the lines from others this browser has not shown
// yet (any line shown on screen counts as seen; remembered per table, so a reload
// keeps the count).
(function () {
  "use strict";
  var panel = document.getElementById("chat");
  if (!panel) { return; }
  var KEEP = 100;
  var shownNewest = "";
  var dialog = document.getElementById("chat-player");

  function muted() {
    try { return JSON.parse(document.getElementById("chat-muted").dataset.muted || "[]"); }
    catch (error) { return []; }
  }

  function openPlayer(button) {
    if (!dialog) { return; }
    var username = button.dataset.username;
    dialog.querySelector("[data-role=name]").textContent = button.dataset.name || username;
    dialog.querySelectorAll("[data-role=username]").forEach(function (input) { input.value = username; });
    dialog.querySelector("[data-role=line]").value = button.dataset.line || "";
    var isMuted = muted().indexOf(username) >= 0;
    dialog.querySelector("[data-role=mute-type]").value = isMuted ? "unmute" : "mute";
    dialog.querySelector("[data-role=mute-label]").textContent = isMuted ? "Unmute" : "Mute";
    dialog.showModal();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".chat-who") : null;
    if (button) { event.preventDefault(); openPlayer(button); }
  });

  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target;
    if (!form || !form.closest) { return; }
    if (form.id === "chat-form") { form.reset(); }
    if (dialog && form.closest("#chat-player")) {
      if (form.dataset.role === "report-form") { form.reset(); }
      dialog.close();
    }
  });

  function tidy() {
    var list = document.getElementById("chat-lines");
    if (!list) { return; }
    while (list.children.length > KEEP) { list.removeChild(list.firstElementChild); }
    var newest = list.lastElementChild ? list.lastElementChild.id : "";
    if (newest !== shownNewest) { shownNewest = newest; list.scrollTop = list.scrollHeight; }
    var status = document.getElementById("chat-status");
    if (status && status.dataset.until && Number(status.dataset.until) <= Date.now()) {
      status.textContent = "";
      status.dataset.until = "";
    }
  }

  document.addEventListener("htmx:wsAfterMessage", tidy);
  window.setInterval(tidy, 5000);

  var toggle = document.getElementById("chat-toggle");
  var close = document.getElementById("chat-close");
  var unread = document.getElementById("chat-unread");
  var table = document.getElementById("table-page");
  if (!toggle || !table) { return; }
  var seenKey = "pigparlor-chat-seen-" + table.dataset.tableId;
  var seen = Number(window.localStorage.getItem(seenKey) || 0);

  function lineNumber(line) { return Number(line.id.replace("chat-line-", "")) || 0; }

  function countUnread() {
    var lines = Array.prototype.slice.call(document.querySelectorAll("#chat-lines > .chat-line"));
    if (window.getComputedStyle(panel).display !== "none") {
      var newest = lines.reduce(function (top, line) { return Math.max(top, lineNumber(line)); }, seen);
      if (newest !== seen) { seen = newest; window.localStorage.setItem(seenKey, String(seen)); }
    }
    var count = lines.filter(function (line) {
      return lineNumber(line) > seen && line.dataset.from !== panel.dataset.me;
    }).length;
    if (unread.dataset.count === String(count)) { return; }
    unread.dataset.count = String(count);
    unread.hidden = count === 0;
    unread.textContent = count ? String(count) : "";
    if (count) {
      var words = document.createElement("span");
      words.className = "visually-hidden";
      words.textContent = " new";
      unread.appendChild(words);
    }
  }

  function setOpen(open) {
    panel.classList.toggle("is-open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (close) { close.hidden = !open; }
    if (open) {
      var list = document.getElementById("chat-lines");
      if (list) { list.scrollTop = list.scrollHeight; }
      (close || panel).focus();
    } else {
      toggle.focus();
    }
    countUnread();
  }

  toggle.addEventListener("click", function () { setOpen(!panel.classList.contains("is-open")); });
  if (close) { close.addEventListener("click", function () { setOpen(false); }); }
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && panel.classList.contains("is-open") && !(dialog && dialog.open)) { setOpen(false); }
  });
  document.addEventListener("htmx:wsAfterMessage", countUnread);
  window.addEventListener("resize", countUnread);
  countUnread();
})();
