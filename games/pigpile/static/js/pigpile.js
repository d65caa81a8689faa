// Pig Pile's table page: the face-up choice by tapping cards, and plays by tapping a number.
//
// - PP1 face-up choice: every hand card is a toggle (aria-pressed). Three chosen fill the
//   confirm form's `action` field with {"type": "faceup", "ranks": [...]}, ranks in hand order
//   (numbers up, Hog Wild last) as the legal actions list them; the server still checks it.
//   A fourth tap is refused with a hint; a second tap on a chosen card puts it back.
// - Plays: a playable number is one button around its cards; it opens that number's counts
//   ("Play a 5", "Play two 5s") and a Cancel button. Escape cancels too.
// - What is chosen or open lives on this page (frames never touch it), so an update that
//   redraws the hand keeps it while the same cards are still there.
(function () {
  "use strict";
  if (window.pigPileTable) { return; }
  window.pigPileTable = true;

  var page = document.getElementById("table-page");
  if (!page) { return; }
  var chosen = [];    // card ids picked to lay face up
  var openKey = null; // data-key of the group whose counts are open
  var focusWasInTable = false;

  function all(selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); }

  function toggles() { return all("#pp-hand .pp-toggle"); }

  function renderChoice() {
    var form = document.querySelector("#pp-prompt .pp-faceup");
    var present = toggles().map(function (b) { return b.dataset.card; });
    chosen = chosen.filter(function (card) { return present.indexOf(card) >= 0; });
    toggles().forEach(function (b) {
      b.setAttribute("aria-pressed", chosen.indexOf(b.dataset.card) >= 0 ? "true" : "false");
    });
    if (!form) { return; }
    var picked = toggles().filter(function (b) { return chosen.indexOf(b.dataset.card) >= 0; });
    picked.sort(function (a, b) { return Number(a.dataset.order) - Number(b.dataset.order); });
    var send = form.querySelector("button[type=submit]");
    var field = form.querySelector("input[name=action]");
    if (picked.length === 3) {
      field.value = JSON.stringify({type: "faceup", ranks: picked.map(function (b) { return Number(b.dataset.value); })});
      var titles = picked.map(function (b) { return b.dataset.title; });
      send.textContent = "Lay " + titles[0] + ", " + titles[1] + " and " + titles[2] + " face up";
      send.disabled = false;
    } else {
      field.value = "";
      send.textContent = picked.length ? "Tap " + (3 - picked.length) + " more card" + (picked.length === 2 ? "" : "s")
                                        : "Tap three cards in your hand";
      send.disabled = true;
    }
  }

  function hint(text) {
    var elt = document.querySelector("#pp-prompt .pp-faceup__hint");
    if (elt) { elt.textContent = text; elt.setAttribute("role", "status"); }
  }

  function renderOpen() {
    all(".pp-pick").forEach(function (button) {
      var group = button.closest(".pp-group");
      var open = group && group.dataset.key === openKey;
      button.setAttribute("aria-expanded", open ? "true" : "false");
      var panel = document.getElementById(button.getAttribute("aria-controls"));
      if (panel) { panel.hidden = !open; }
    });
    if (openKey && !document.querySelector('.pp-group[data-key="' + openKey + '"] .pp-pick')) { openKey = null; }
  }

  function close(refocus) {
    var key = openKey;
    openKey = null;
    renderOpen();
    if (refocus && key) {
      var button = document.querySelector('.pp-group[data-key="' + key + '"] .pp-pick');
      if (button) { button.focus(); }
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target : null;
    if (!target) { return; }
    var toggle = target.closest(".pp-toggle");
    if (toggle) {
      var at = chosen.indexOf(toggle.dataset.card);
      if (at >= 0) {
        chosen.splice(at, 1);
        hint("Tap a chosen card again to put it back.");
      } else if (chosen.length < 3) {
        chosen.push(toggle.dataset.card);
        hint(chosen.length === 3 ? "Three chosen: confirm, or tap one to put it back." : "Tap a chosen card again to put it back.");
      } else {
        hint("You have chosen three: tap one of them to put it back first.");
      }
      renderChoice();
      return;
    }
    var pick = target.closest(".pp-pick");
    if (pick) {
      var key = pick.closest(".pp-group").dataset.key;
      openKey = openKey === key ? null : key;
      renderOpen();
      if (openKey) {
        var first = document.querySelector("#" + CSS.escape(pick.getAttribute("aria-controls")) + " button");
        if (first) { first.focus(); }
      }
      return;
    }
    if (target.closest(".pp-cancel")) { close(true); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && openKey) { close(true); }
  });

  document.addEventListener("htmx:wsBeforeMessage", function () {
    var active = document.activeElement;
    var table = document.getElementById("table-socket");
    focusWasInTable = !!(active && table && table.contains(active) && active !== table);
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    renderChoice();
    renderOpen();
    var active = document.activeElement;
    if (focusWasInTable && (!active || active === document.body)) {
      var next = document.querySelector("#pp-prompt button:not([disabled]), #pp-hand button, #pp-me button");
      if (next) { next.focus({preventScroll: true}); }
    }
  });

  renderChoice();
  renderOpen();
})();
