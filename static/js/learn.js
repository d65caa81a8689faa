// Learning at the table: the "How to play" panel and a first game's hints.
//
// - The panel is a non-modal <dialog> (#howto): the board stays in reach while it is open
//   (on a phone it drops from the top and leaves the hand below in view). Every
//   [data-howto-open] button opens it (a second press closes it) and says so with
//   aria-expanded; Close and Escape close it and give the focus back to the button.
//   Its "Now" part (#table-now) is swapped by the table's socket like any part.
// - A hint (#table-hint, only at a first game with hints) names what to tap in
//   data-targets, CSS selectors of the board in the order to tap them: each frame,
//   those get .is-hinted (and are marked on the page only: the server decided), and a
//   screen reader hears the hint as their description when it reaches them. A new
//   hint's sentence is read out through #table-hint-live.
(function () {
  "use strict";
  var dialog = document.getElementById("howto");
  var live = document.getElementById("table-hint-live");
  var lastSaid = "";
  var opener = null;

  function openers() { return Array.prototype.slice.call(document.querySelectorAll("[data-howto-open]")); }

  function setExpanded(open) {
    openers().forEach(function (button) { button.setAttribute("aria-expanded", open ? "true" : "false"); });
  }

  function openPanel(button) {
    opener = button;
    dialog.show();  // focuses its first control, Close: a screen reader hears the dialog's name
    setExpanded(true);
  }

  // The button says "collapsed" and gets the focus back at once, in the same task as the
  // close (the dialog's own close event comes a task later; a reader in between saw
  // aria-expanded still "true"); the event covers any other way the dialog closes.
  function closed() {
    setExpanded(false);
    if (opener && document.contains(opener)) { opener.focus(); }
    opener = null;
  }

  function closePanel() {
    if (!dialog.open) { return; }
    dialog.close();
    closed();
  }

  if (dialog) {
    document.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("[data-howto-open]") : null;
      if (button) {
        if (dialog.open) { closePanel(); } else { openPanel(button); }
        return;
      }
      if (event.target.closest && event.target.closest("[data-howto-close]")) { closePanel(); }
    });
    dialog.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { event.preventDefault(); closePanel(); }
    });
    dialog.addEventListener("close", closed);
  }

  function showHint() {
    document.querySelectorAll(".is-hinted").forEach(function (elt) {
      elt.classList.remove("is-hinted");
      if (elt.getAttribute("aria-describedby") === "table-hint-say") { elt.removeAttribute("aria-describedby"); }
    });
    var hint = document.getElementById("table-hint");
    if (!hint) { return; }
    var targets = [];
    try { targets = JSON.parse(hint.dataset.targets || "[]"); } catch (error) { targets = []; }
    targets.forEach(function (selector) {
      try {
        document.querySelectorAll(selector).forEach(function (elt) {
          elt.classList.add("is-hinted");
          if (!elt.hasAttribute("aria-describedby")) { elt.setAttribute("aria-describedby", "table-hint-say"); }
        });
      } catch (error) { /* a selector this browser cannot read: the sentence still says it */ }
    });
    var say = hint.querySelector(".table-hint__say");
    var text = say ? say.textContent.trim() : "";
    if (live && text && text !== lastSaid) { live.textContent = "Hint: " + text; }
    lastSaid = text;
  }

  document.addEventListener("htmx:wsAfterMessage", showHint);
  showHint();
})();
