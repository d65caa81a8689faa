// Snout!'s table page: the pass picker, focus kept across swaps, and "your move" read out.
//
// - The pass (S3) is three cards of your hand. The server renders the picker preset
//   to the three highest cards (what the timer would pass); tapping cards changes the
//   choice and this script rewrites the form's `action` field. Every new version
//   re-renders the form, so the choice is kept here and put back after each swap.
// - A swap replaces the focused button; focus returns to the same card or to the
//   prompt's first button so keyboard play goes on.
// - When it becomes this seat's move, the prompt is added to the shell's live region.
// - Calling Snout! (S10) can't be undone and sits next to "Play on": the first tap only
//   arms it ("Sure? Tap again to call Snout!"), the second calls (issue 15's light confirm).
(function () {
  "use strict";
  if (window.snoutTable) { return; }
  window.snoutTable = true;

  var PASS_SIZE = 3;
  var chosen = null;        // card ids (strings) in the order they were picked
  var focusedCard = null;
  var focusWasInTable = false;
  var lastPrompt = "";
  var lastSaid = "";        // what this script last put in the live region

  function pickButtons() {
    return Array.prototype.slice.call(document.querySelectorAll("#sn-hand .sn-pick"));
  }

  function render() {
    var form = document.querySelector("#sn-hand .sn-pass");
    var buttons = pickButtons();
    if (!form || !buttons.length) { chosen = null; return; }
    var ids = buttons.map(function (b) { return b.dataset.card; });
    if (chosen === null || chosen.some(function (id) { return ids.indexOf(id) < 0; })) {
      chosen = buttons.filter(function (b) { return b.getAttribute("aria-pressed") === "true"; })
        .map(function (b) { return b.dataset.card; });
    }
    buttons.forEach(function (b) {
      b.setAttribute("aria-pressed", chosen.indexOf(b.dataset.card) >= 0 ? "true" : "false");
    });
    var picked = buttons.filter(function (b) { return chosen.indexOf(b.dataset.card) >= 0; })
      .sort(function (a, b) { return Number(a.dataset.card) - Number(b.dataset.card); });
    var send = form.querySelector("button[type=submit]");
    var hint = document.querySelector("#sn-hand .sn-picker__hint");
    form.querySelector("input[name=action]").value = JSON.stringify(
      {type: "pass", pigs: picked.map(function (b) { return b.dataset.pose; })});
    var missing = PASS_SIZE - picked.length;
    send.disabled = missing !== 0;
    send.textContent = missing === 0 ? "Pass these 3 to " + form.dataset.to : "Pick " + missing + " more";
    if (hint) {
      hint.textContent = picked.length + " of 3 chosen: " +
        picked.map(function (b) { return b.getAttribute("aria-label").split(",")[0]; }).join(", ");
    }
  }

  document.addEventListener("click", function (event) {
    var call = event.target.closest ? event.target.closest("#sn-prompt .sn-act--snout button") : null;
    if (call && !call.dataset.armed) {
      event.preventDefault();
      call.dataset.armed = "1";
      call.textContent = "Sure? Tap again to call Snout!";
      return;
    }
  }, true);

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("#sn-hand .sn-pick") : null;
    if (!button) { return; }
    render();
    var id = button.dataset.card;
    var at = chosen.indexOf(id);
    if (at >= 0) {
      chosen.splice(at, 1);
    } else {
      if (chosen.length >= PASS_SIZE) { chosen.shift(); }
      chosen.push(id);
    }
    render();
  });

  document.addEventListener("htmx:wsBeforeMessage", function () {
    var active = document.activeElement;
    var table = document.getElementById("table-socket");
    focusWasInTable = !!(active && table && table.contains(active) && active !== table);
    focusedCard = active && active.dataset ? active.dataset.card || null : null;
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    render();
    var active = document.activeElement;
    if (focusWasInTable && (!active || active === document.body)) {
      var again = focusedCard && document.querySelector('#sn-hand .sn-pick[data-card="' + focusedCard + '"]');
      var next = again || document.querySelector("#sn-prompt button, #sn-hand .sn-pass button");
      if (next) { next.focus({preventScroll: true}); }
    }
    var prompt = document.querySelector("#sn-prompt.is-yours .sn-prompt__text");
    var text = prompt ? prompt.textContent.trim() : "";
    var announcer = document.getElementById("table-announce");
    if (text && text !== lastPrompt && announcer) {
      var said = announcer.textContent;
      var fresh = said && said !== lastSaid ? said + (/[.!?…]$/.test(said) ? " " : ". ") : "";
      lastSaid = announcer.textContent = fresh + text;
    }
    lastPrompt = text;
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", render);
  } else {
    render();
  }
})();
