// The replay page: step through a finished table's versions.
//
// Every step is a fragment the server renders from the state the engine rebuilt
// (pigparlor/tables/replay_views.py); this script only asks for the version and
// view chosen by the buttons, the slider, the keys or the play timer, drops
// answers that arrive after a newer request, keeps the address linkable
// (?v=…&view=…) and reads each step out through a polite live region.
(function () {
  "use strict";
  var page = document.getElementById("replay-page");
  if (!page) { return; }
  var stage = document.getElementById("replay-stage");
  var slider = document.getElementById("replay-slider");
  var position = document.getElementById("replay-position");
  var viewSelect = document.getElementById("replay-view");
  var speedSelect = document.getElementById("replay-speed");
  var playButton = document.getElementById("replay-play");
  var announcer = document.getElementById("replay-announce");
  var rounds = page.dataset.rounds.split(",").filter(Boolean).map(Number);
  var last = Number(slider.max);
  var current = Number(slider.value);
  var asked = 0;
  var timer = null;

  function moveText(version) { return "move " + (version - 1) + " of " + (last - 1); }

  function show(version) {
    version = Math.max(1, Math.min(last, version));
    current = version;
    slider.value = String(version);
    slider.setAttribute("aria-valuetext", moveText(version));
    position.textContent = (version - 1) + "/" + (last - 1);
    var query = "?v=" + version + "&view=" + encodeURIComponent(viewSelect.value);
    history.replaceState(null, "", location.pathname + query);
    var ticket = ++asked;
    return fetch(page.dataset.stepUrl + query, {credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        if (ticket !== asked) { return; }
        stage.innerHTML = html;
        var what = document.getElementById("replay-what");
        if (what) { announcer.textContent = what.textContent.trim(); }
      })
      .catch(function () { if (ticket === asked) { announcer.textContent = "Could not load that move."; } });
  }

  function roundBack() {
    var before = rounds.filter(function (start) { return start < current; });
    return before.length ? before[before.length - 1] : 1;
  }

  function roundNext() {
    var after = rounds.filter(function (start) { return start > current; });
    return after.length ? after[0] : last;
  }

  function stop() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    playButton.setAttribute("aria-pressed", "false");
    playButton.textContent = "▶ Play";
    playButton.setAttribute("aria-label", "Play");
  }

  // Playing waits for each move to be drawn before counting the next one's
  // delay, so a slow answer never piles requests up.
  function play() {
    playButton.setAttribute("aria-pressed", "true");
    playButton.textContent = "❚❚ Pause";
    playButton.setAttribute("aria-label", "Pause");
    var started = Date.now();
    var next = function () {
      if (timer === null) { return; }
      if (current >= last) { stop(); return; }
      started = Date.now();
      show(current + 1).then(function () {
        if (timer === null) { return; }
        timer = setTimeout(next, Math.max(0, Number(speedSelect.value) - (Date.now() - started)));
      });
    };
    timer = setTimeout(next, current >= last ? 0 : Number(speedSelect.value));
    if (current >= last) { show(1); }
  }

  function go(where) {
    if (where === "play") { if (timer === null) { play(); } else { stop(); } return; }
    stop();
    var targets = {first: 1, last: last, back: current - 1, forward: current + 1,
                   "round-back": roundBack(), "round-next": roundNext()};
    show(targets[where]);
  }

  page.addEventListener("click", function (event) {
    var button = event.target.closest("[data-go]");
    if (button) { go(button.dataset.go); }
  });
  document.getElementById("replay-controls").addEventListener("submit", function (event) { event.preventDefault(); });
  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  viewSelect.addEventListener("change", function () { show(current); });
  speedSelect.addEventListener("change", function () { if (timer !== null) { stop(); play(); } });

  var KEYS = {ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last",
              PageUp: "round-back", PageDown: "round-next", " ": "play"};
  document.addEventListener("keydown", function (event) {
    var where = KEYS[event.key];
    if (!where || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var target = event.target;
    // The slider steps itself by a move (arrows) or to the ends, then says "input";
    // its own Page Up / Page Down would jump a tenth of the game: they jump a round here.
    if (target === slider && where !== "play" && where !== "round-back" && where !== "round-next") { return; }
    if (target !== slider && target.closest && target.closest("select, input, textarea")) { return; }
    if (where === "play" && target.closest && target.closest("button, a")) { return; }
    event.preventDefault();
    go(where);
  });

  var verify = document.getElementById("replay-verify");
  var verdict = document.getElementById("replay-verdict-slot");
  verify.addEventListener("click", function () {
    verify.disabled = true;
    verdict.textContent = "Checking…";
    fetch(page.dataset.verifyUrl, {credentials: "same-origin"})
      .then(function (response) { return response.text(); })
      .then(function (html) { verdict.innerHTML = html; })
      .catch(function () { verdict.textContent = "The check could not be run."; })
      .then(function () { verify.disabled = false; });
  });
}());
