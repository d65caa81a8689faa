// The replay page: step through a finished table's moments, and verify its deal here.
//
// Every step is a fragment the server renders from the state the engine rebuilt
// (pigparlor/tables/replay_views.py); this script only asks for the moment and
// view chosen by the buttons, the slider, the keys or the play timer, drops
// answers that arrive after a newer request, keeps the address linkable
// (?v=<version>&view=…) and reads each step out through a polite live region.
// A moment is a version the slider stops at: clock ticks that wrote nothing are
// folded into the moment before them (data-moments lists each moment's version).
//
// Verify runs in the browser, on what the page fetched when it opened
// (…/replay/proof/), so the check needs no server (docs/fairness.md):
// SHA-256 (WebCrypto) of the seed's digits against the commitment shown at the
// start; the deal seed from the seed and the salts; and the SHA-256 of each
// version's state, as canonical JSON written here byte for byte as
// games/core/replay.py writes it, against the digest logged when it was played.
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
  var moments = page.dataset.moments.split(",").map(Number);
  var rounds = page.dataset.rounds.split(",").filter(Boolean).map(Number);
  var last = moments.length - 1;
  var current = Number(slider.value);
  var asked = 0;
  var timer = null;

  function momentText(moment) { return moment ? "move " + moment + " of " + last : "the deal"; }

  function show(moment) {
    moment = Math.max(0, Math.min(last, moment));
    current = moment;
    slider.value = String(moment);
    slider.setAttribute("aria-valuetext", momentText(moment));
    position.textContent = moment + "/" + last;
    var query = "?v=" + moments[moment] + "&view=" + encodeURIComponent(viewSelect.value);
    history.replaceState(null, "", location.pathname + query);
    var ticket = ++asked;
    return fetch(page.dataset.stepUrl + query, {credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        if (ticket !== asked) { return; }
        stage.innerHTML = html;
        var what = document.getElementById("replay-what");
        if (what) { announcer.textContent = what.textContent.replace(/\s+/g, " ").trim(); }
      })
      .catch(function () { if (ticket === asked) { announcer.textContent = "Could not load that move."; } });
  }

  function roundBack() {
    var before = rounds.filter(function (start) { return start < current; });
    return before.length ? before[before.length - 1] : 0;
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
    if (current >= last) { show(0); }
  }

  function go(where) {
    if (where === "play") { if (timer === null) { play(); } else { stop(); } return; }
    stop();
    var targets = {first: 0, last: last, back: current - 1, forward: current + 1,
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

  // ---- Verify, in this browser ----

  // JSON read as it is written: every number kept as its digits (a seed and the
  // random source's state pass 2^53, where a double would round them), objects
  // as their [key, value] pairs.
  function Digits(text) { this.text = text; }

  function parseJson(text) {
    var at = 0;
    function fail() { throw new SyntaxError("not JSON at " + at); }
    function space() { while (at < text.length && " \t\n\r".indexOf(text[at]) >= 0) { at++; } }
    function value() {
      space();
      var c = text[at];
      if (c === "{") {
        at++; var pairs = []; space();
        if (text[at] === "}") { at++; return {pairs: pairs}; }
        for (;;) {
          space(); if (text[at] !== "\"") { fail(); }
          var key = string(); space(); if (text[at++] !== ":") { fail(); }
          pairs.push([key, value()]); space();
          if (text[at] === ",") { at++; continue; }
          if (text[at++] === "}") { return {pairs: pairs}; }
          fail();
        }
      }
      if (c === "[") {
        at++; var items = []; space();
        if (text[at] === "]") { at++; return items; }
        for (;;) {
          items.push(value()); space();
          if (text[at] === ",") { at++; continue; }
          if (text[at++] === "]") { return items; }
          fail();
        }
      }
      if (c === "\"") { return string(); }
      var word = /^(?:true|false|null)/.exec(text.slice(at, at + 5));
      if (word) { at += word[0].length; return {"true": true, "false": false, "null": null}[word[0]]; }
      var number = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
      if (!number) { fail(); }
      at += number[0].length;
      return new Digits(number[0]);
    }
    function string() {
      var end = at + 1;
      while (text[end] !== "\"") { if (end >= text.length) { fail(); } end += text[end] === "\\" ? 2 : 1; }
      var read = JSON.parse(text.slice(at, end + 1));
      at = end + 1;
      return read;
    }
    var read = value(); space();
    if (at !== text.length) { fail(); }
    return read;
  }

  // games.core.replay.canonical_json: json.dumps(sort_keys=True, separators=(",", ":"),
  // ensure_ascii=True). Keys sorted by code point, as Python sorts strings; every
  // character outside printable ASCII escaped as \uXXXX in lower-case hex (one per
  // UTF-16 unit, so a surrogate pair past U+FFFF), with json's short escapes.
  var SHORT = {"\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"};
  function quote(text) {
    var out = "\"";
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      var code = text.charCodeAt(i);
      if (SHORT[c]) { out += SHORT[c]; } else if (code < 0x20 || code > 0x7e) {
        out += "\\u" + ("000" + code.toString(16)).slice(-4);
      } else { out += c; }
    }
    return out + "\"";
  }
  function byCodePoint(a, b) {
    var x = Array.from(a[0]), y = Array.from(b[0]);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      var d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d) { return d; }
    }
    return x.length - y.length;
  }
  function canonical(value) {
    if (value === null) { return "null"; }
    if (value === true || value === false) { return String(value); }
    if (value instanceof Digits) { return value.text; }
    if (typeof value === "string") { return quote(value); }
    if (Array.isArray(value)) { return "[" + value.map(canonical).join(",") + "]"; }
    return "{" + value.pairs.slice().sort(byCodePoint).map(function (pair) {
      return quote(pair[0]) + ":" + canonical(pair[1]);
    }).join(",") + "}";
  }
  function field(object, name) {
    var pair = object.pairs.filter(function (each) { return each[0] === name; })[0];
    return pair ? pair[1] : undefined;
  }

  function sha256(text) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (buffer) {
      return Array.from(new Uint8Array(buffer)).map(function (byte) { return ("0" + byte.toString(16)).slice(-2); }).join("");
    });
  }

  // games.core.replay.deal_seed: the seed alone, or the first 8 bytes of
  // sha256("<seed>|<salt 0>|<salt 1>|…") (UTF-8) read big-endian, shifted right by one.
  function dealSeed(seed, salts) {
    if (!salts.some(Boolean)) { return Promise.resolve(seed); }
    var mixed = [seed].concat(salts.map(function (salt) { return salt || ""; })).join("|");
    return sha256(mixed).then(function (hex) { return (BigInt("0x" + hex.slice(0, 16)) >> 1n).toString(); });
  }

  function moveOf(version) {
    for (var moment = 0; moment < moments.length; moment++) { if (moments[moment] >= version) { return moment; } }
    return last;
  }

  // Each check: what it says when it holds, and when it fails.
  function check(proof, shownCommitment) {
    var seed = field(proof, "seed").text;
    var salts = field(proof, "salts");
    var results = [];
    return sha256(seed).then(function (hash) {
      results.push(hash === shownCommitment && hash === field(proof, "commitment") ? {ok: true,
        says: "The seed revealed now, " + seed + ", is the one the table committed to before the deal: its SHA-256 is the commitment shown at the start."}
        : {ok: false, says: "The seed revealed now does not match the commitment shown at the start: its SHA-256 is " + hash + "."});
      return dealSeed(seed, salts);
    }).then(function (mixed) {
      var salted = salts.filter(Boolean).length;
      results.push(mixed === field(proof, "deal_seed").text ? {ok: true,
        says: salted ? "The cards were dealt from the seed mixed with " + salted + " player" + (salted > 1 ? "s'" : "'s") + " own random salt" + (salted > 1 ? "s" : "") + ", sent before the deal: the server could not choose the deal alone."
                     : "The cards were dealt from the seed alone (no player sent a salt), so this shows the deal was fixed before play, not that the server did not choose it."}
        : {ok: false, says: "The deal seed is not the seed mixed with the players' salts (that gives " + mixed + ")."});
      var versions = field(proof, "versions");
      if (!versions.length) {
        results.push({ok: true, says: "This table was played before each move's state was fingerprinted, so only the deal can be checked here."});
        return results;
      }
      return Promise.all(versions.map(function (each) { return sha256(canonical(field(each, "state"))); }))
        .then(function (hashes) {
          var wrong = versions.filter(function (each, index) { return hashes[index] !== field(each, "digest"); });
          var numbers = versions.map(function (each) { return Number(field(each, "version").text); });
          var whole = numbers.every(function (version, index) { return version === index + 2; })
            && numbers.length === Number(field(proof, "last").text) - 1;
          if (wrong.length) {
            results.push({ok: false, says: "Move " + moveOf(Number(field(wrong[0], "version").text)) + " is not the move that was played: the state this replay shows after it differs from the one fingerprinted at the table" + (wrong.length > 1 ? " (and " + (wrong.length - 1) + " more)" : "") + "."});
          } else {
            results.push({ok: true, says: "The state after each of the " + versions.length + " logged actions is the one fingerprinted (SHA-256) when it was played: this replay is the game that was played" + (whole ? "." : ", for the actions that were fingerprinted.")});
          }
          return results;
        });
    });
  }

  var verify = document.getElementById("replay-verify");
  var verdict = document.getElementById("replay-verdict-slot");
  var shownCommitment = document.getElementById("replay-commitment").textContent.trim();
  var proofText = fetch(page.dataset.proofUrl, {credentials: "same-origin"})
    .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); });
  proofText.then(function () { verify.dataset.ready = "true"; }, function () { verify.dataset.ready = "false"; });

  function say(ok, headline, results) {
    var box = document.createElement("div");
    box.id = "replay-verdict";
    box.className = "replay-verdict " + (ok ? "is-ok" : "is-bad");
    box.setAttribute("role", "status");
    var title = document.createElement("p");
    var strong = document.createElement("strong");
    strong.textContent = headline;
    title.appendChild(strong);
    box.appendChild(title);
    var list = document.createElement("ul");
    results.forEach(function (result) {
      var item = document.createElement("li");
      item.className = result.ok ? "is-ok" : "is-bad";
      var mark = document.createElement("span");
      mark.className = "replay-verdict__mark";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = result.ok ? "✓ " : "✗ ";
      item.appendChild(mark);
      item.appendChild(document.createTextNode(result.says));
      list.appendChild(item);
    });
    box.appendChild(list);
    var limits = document.createElement("p");
    limits.className = "muted";
    limits.textContent = "Checked in this browser, with nothing asked of the server. Not checked here: that every move followed the rules, which takes the game's own engine (the site's verify_table command, or your copy of the engines).";
    box.appendChild(limits);
    verdict.replaceChildren(box);
  }

  verify.addEventListener("click", function () {
    verify.disabled = true;
    verdict.textContent = "Checking…";
    if (!window.crypto || !crypto.subtle) {
      verdict.textContent = "This browser cannot check here: its SHA-256 (WebCrypto) works only on a secure (https) page.";
      verify.disabled = false;
      return;
    }
    proofText.then(function (text) { return check(parseJson(text), shownCommitment); })
      .then(function (results) {
        var ok = results.every(function (result) { return result.ok; });
        say(ok, ok ? "This deal was fair: the cards came from the seed fixed before play, and every move shown is the one played."
                   : "This table does NOT verify: " + results.filter(function (r) { return !r.ok; })[0].says, results);
      }, function () {
        verdict.textContent = "What to check did not arrive when the page opened: reload the page, then press Verify.";
      })
      .then(function () { verify.disabled = false; });
  });
}());
