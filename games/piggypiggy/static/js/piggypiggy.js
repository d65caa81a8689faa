// Piggy Piggy's table page: the goat flow, the "add matching cards" picker, pigs that move.
//
// - Goat flow (PG4): every goat the page offers is already a ws-send form on the card it
//   would discard, hidden until the player taps a goat in the hand (or "Play a goat"). The
//   mode is a class on #table-page, which frames never swap, so it survives updates; it ends
//   with Escape, a second tap, a played goat, or when no goat is offered any more.
// - PG5 picker: the server preselects every matching card in the "Add" form; tapping cards
//   rewrites that form's `action` field with the chosen ids.
// - A pig whose holder changed trots in (CSS skips the animation on reduced motion).
// - Food plays (PG2) can't be undone: a food's cards are one button that chooses it (its "Play"
//   and Cancel buttons appear); a second tap on the cards, or "Play", commits (issue 15).
// - A swap that removes the focused button puts focus on the next sensible one, for keyboard play.
(function () {
  "use strict";
  if (window.piggyPiggyTable) { return; }
  window.piggyPiggyTable = true;

  var page = document.getElementById("table-page");
  if (!page) { return; }
  var holders = {};
  var focusWasInTable = false;
  var goatPlayed = false;
  var unpicked = [];
  var chosenFood = null; // data-food of the hand group chosen to play, until it is played or cancelled

  function all(selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); }

  function setGoatMode(on) {
    on = on && all(".pg-goat-toggle").length > 0;
    page.classList.toggle("pg-goat-mode", on);
    all(".pg-goat-toggle").forEach(function (b) { b.setAttribute("aria-pressed", on ? "true" : "false"); });
    return on;
  }

  function renderPicker() {
    var form = document.querySelector("#pg-prompt .pg-add");
    if (!form) { unpicked = []; return; }
    var picks = all("#pg-prompt .pg-pick");
    var chosen = [];
    var total = 0;
    picks.forEach(function (b) {
      var on = unpicked.indexOf(b.dataset.card) < 0;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) { chosen.push(Number(b.dataset.card)); total += Number(b.dataset.amount); }
    });
    chosen.sort(function (a, b) { return a - b; });
    form.querySelector("input[name=action]").value = JSON.stringify({type: "add", cards: chosen});
    var send = form.querySelector("button[type=submit]");
    var food = document.querySelector("#pg-prompt .pg-inherit").dataset.food;
    send.disabled = chosen.length === 0;
    send.textContent = chosen.length ? "Add " + chosen.length + " (" + total + " " + food + ")" : "Pick cards to add";
  }

  function renderFood() {
    all("#pg-hand .pg-food").forEach(function (button) {
      var on = button.closest(".pg-group").dataset.food === chosenFood;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      var commit = document.getElementById(button.getAttribute("aria-controls"));
      if (commit) { commit.hidden = !on; }
    });
    if (chosenFood && !document.querySelector('#pg-hand .pg-group[data-food="' + chosenFood + '"] .pg-food')) {
      chosenFood = null;
    }
  }

  function dropFood(refocus) {
    var food = chosenFood;
    chosenFood = null;
    renderFood();
    if (refocus && food) {
      var button = document.querySelector('#pg-hand .pg-group[data-food="' + food + '"] .pg-food');
      if (button) { button.focus(); }
    }
  }

  function rememberPigs() {
    holders = {};
    all("#pg-pigs [data-food]").forEach(function (pig) { holders[pig.dataset.food] = pig.dataset.holder; });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target : null;
    if (!target) { return; }
    var food = target.closest("#pg-hand .pg-food");
    if (food) {
      var key = food.closest(".pg-group").dataset.food;
      if (chosenFood === key) {
        var form = document.querySelector("#" + CSS.escape(food.getAttribute("aria-controls")) + " form");
        if (form) { form.requestSubmit(); }
        return;
      }
      chosenFood = key;
      setGoatMode(false);
      renderFood();
      return;
    }
    if (target.closest(".pg-cancel")) { dropFood(true); return; }
    if (target.closest(".pg-goat-cancel")) {
      setGoatMode(false);
      var again = document.querySelector("#pg-prompt .pg-goat-toggle");
      if (again) { again.focus(); }
      return;
    }
    var toggle = target.closest(".pg-goat-toggle");
    if (toggle) {
      if (setGoatMode(!page.classList.contains("pg-goat-mode"))) {
        var first = document.querySelector(".pg-target button");
        if (first) { first.focus({preventScroll: false}); }
      }
      return;
    }
    if (target.closest(".pg-target")) { goatPlayed = true; return; }
    var pick = target.closest("#pg-prompt .pg-pick");
    if (pick) {
      var at = unpicked.indexOf(pick.dataset.card);
      if (at >= 0) { unpicked.splice(at, 1); } else { unpicked.push(pick.dataset.card); }
      renderPicker();
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && chosenFood) { dropFood(true); return; }
    if (event.key === "Escape" && page.classList.contains("pg-goat-mode")) {
      setGoatMode(false);
      var toggle = document.querySelector("#pg-prompt .pg-goat-toggle");
      if (toggle) { toggle.focus(); }
    }
  });

  document.addEventListener("htmx:wsBeforeMessage", function () {
    var active = document.activeElement;
    var table = document.getElementById("table-socket");
    focusWasInTable = !!(active && table && table.contains(active) && active !== table);
    rememberPigs();
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    if (goatPlayed) { goatPlayed = false; setGoatMode(false); } else { setGoatMode(page.classList.contains("pg-goat-mode")); }
    renderPicker();
    renderFood();
    all("#pg-pigs [data-food]").forEach(function (pig) {
      var before = holders[pig.dataset.food];
      if (before !== undefined && before !== pig.dataset.holder) { pig.classList.add("is-moved"); }
    });
    var active = document.activeElement;
    if (focusWasInTable && (!active || active === document.body)) {
      var next = document.querySelector(
        ".pg-goat-mode .pg-target button, #pg-prompt button:not([disabled]), #pg-hand button");
      if (next) { next.focus({preventScroll: true}); }
    }
  });

  rememberPigs();
  renderPicker();
  renderFood();
})();
