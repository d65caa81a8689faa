// Oink!'s table page: reaction timing (O9), keys 1-7 and the space bar, taps.
//
// - Reaction time: when a frame swaps in a new pile state (#ok-pile's data-pile
//   changes), the next requestAnimationFrame callback notes performance.now(): the
//   moment the card was drawn. A slap sends the input event's timeStamp minus that
//   moment as "reaction_ms" (docs/fairness.md). If the card was never drawn (a
//   hidden tab), the field is left out and the server ranks the slap by what it
//   can confirm.
// - Slaps name the pile state they answer; one slap per pile state leaves this page.
// - Taps slap on pointerdown (a click waits for the finger to lift); a click still
//   slaps for keyboard activation and assistive tech.
// - The cry form is rendered once (so a flip's frame stays small): the version and
//   action are filled in here when a slap is sent.
(function () {
  "use strict";
  if (window.oinkTable) { return; }
  window.oinkTable = true;

  var shown = {pile: null, at: null};   // the pile state on screen, and when it was drawn
  var slapped = null;                   // the pile state this page last slapped

  function pile() { return document.getElementById("ok-pile"); }

  function heldVersion() {
    var marker = document.getElementById("table-version");
    return marker ? marker.dataset.version : "";
  }

  function notePile() {
    var current = pile();
    if (!current) { return; }
    var id = current.dataset.pile;
    if (id === shown.pile) { return; }
    shown.pile = id;
    shown.at = null;
    current.classList.add("is-new");
    window.requestAnimationFrame(function () {
      if (shown.pile === id) { shown.at = window.performance.now(); }
    });
    var cries = document.getElementById("ok-cries");
    if (cries) {
      cries.classList.remove("is-done");
      cries.querySelectorAll(".is-sent").forEach(function (b) { b.classList.remove("is-sent"); });
      cries.querySelectorAll(".ok-cry[aria-disabled]").forEach(function (b) { b.removeAttribute("aria-disabled"); });
    }
  }

  function slap(button, event) {
    var current = pile();
    var form = document.getElementById("ok-cries");
    if (!current || !form || current.dataset.open !== "true") { return; }
    var id = current.dataset.pile;
    if (slapped === id) { return; }
    slapped = id;
    var action = {type: "slap", cry: Number(button.dataset.cry), pile: Number(id)};
    if (shown.pile === id && shown.at !== null) {
      action.reaction_ms = Math.max(0, Math.round(event.timeStamp - shown.at));
    }
    form.querySelector("input[name=version]").value = heldVersion();
    form.querySelector("input[name=action]").value = JSON.stringify(action);
    button.classList.add("is-sent");
    form.classList.add("is-done");
    // One cry a card: the others are dimmed and say so to assistive technology too.
    form.querySelectorAll(".ok-cry:not(.is-sent)").forEach(function (b) { b.setAttribute("aria-disabled", "true"); });
    form.requestSubmit();
  }

  function flip() {
    var form = document.querySelector("#ok-prompt .ok-flip");
    if (form) { form.requestSubmit(); }
  }

  document.addEventListener("htmx:wsAfterMessage", notePile);

  // Every Oink! form answers the version this page holds when it is sent.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.closest && form.closest("#ok-prompt") && form.querySelector("input[name=version]")) {
      form.querySelector("input[name=version]").value = heldVersion();
    }
  }, true);

  document.addEventListener("pointerdown", function (event) {
    var button = event.target.closest ? event.target.closest("#ok-cries .ok-cry") : null;
    if (!button || event.button !== 0) { return; }
    event.preventDefault();  // no focus ring dance, no delayed click-through
    slap(button, event);
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("#ok-cries .ok-cry") : null;
    if (button) { slap(button, event); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.repeat || event.ctrlKey || event.altKey || event.metaKey) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) { return; }
    if (event.key >= "1" && event.key <= "7") {
      var button = document.querySelector('#ok-cries .ok-cry[data-cry="' + (Number(event.key) - 1) + '"]');
      if (button) {
        event.preventDefault();
        slap(button, event);
      }
    } else if (event.key === " " && pile()) {
      event.preventDefault();
      flip();
    }
  });

  notePile();
})();
