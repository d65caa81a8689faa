// The chat panel: a player's name opens the mute/report dialog, a sent message
// clears the box, the list keeps to its newest lines and scrolls to them, and a
// timeout's status counts down. New lines are read out by the list's own
// polite live region (#chat-lines).
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
})();
