// Never miss your turn: the table page's turn alerts.
//
// #table-turn carries data-your-move="true" while the viewer has something to do.
// Then the document title starts with "(Your turn)". When the move becomes yours:
// - a short sound, if the player turned it on (off by default; remembered per
//   device in localStorage). Our own two notes from the Web Audio API, no file;
// - a notification, if the page is hidden and the player allowed them here;
// - a short vibration where the browser allows it.
(function () {
  "use strict";
  var page = document.getElementById("table-page");
  var socketElt = document.getElementById("table-socket");
  if (!page || !socketElt) { return; }
  var SOUND_KEY = "pigparlor.sound";
  var NOTIFY_KEY = "pigparlor.notify";
  var PREFIX = "(Your turn) ";
  var baseTitle = document.title;
  var wasYours = false;
  var audio = null;
  var soundToggle = document.getElementById("sound-toggle");
  var notifyToggle = document.getElementById("notify-toggle");

  function stored(key) {
    try { return window.localStorage.getItem(key) === "on"; } catch (error) { return false; }
  }

  function store(key, on) {
    try { window.localStorage.setItem(key, on ? "on" : "off"); } catch (error) { /* private mode: not remembered */ }
  }

  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return null; }
    if (!audio) { audio = new Context(); }
    if (audio.state === "suspended") { audio.resume(); }
    return audio;
  }

  function chime() {
    var context = audioContext();
    if (!context) { return; }
    var start = context.currentTime + 0.01;
    [[587.33, 0], [880, 0.14]].forEach(function (note) {
      var tone = context.createOscillator();
      var volume = context.createGain();
      tone.type = "triangle";
      tone.frequency.setValueAtTime(note[0], start + note[1]);
      volume.gain.setValueAtTime(0.0001, start + note[1]);
      volume.gain.exponentialRampToValueAtTime(0.25, start + note[1] + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + note[1] + 0.22);
      tone.connect(volume);
      volume.connect(context.destination);
      tone.start(start + note[1]);
      tone.stop(start + note[1] + 0.25);
    });
  }

  function notify() {
    if (!("Notification" in window) || window.Notification.permission !== "granted" || !stored(NOTIFY_KEY)) { return; }
    try {
      var note = new window.Notification("Your turn at Pig Parlor", {body: baseTitle, tag: "pigparlor-turn-" + page.dataset.tableId});
      note.onclick = function () { window.focus(); note.close(); };
    } catch (error) { /* some phones allow notifications only from a service worker */ }
  }

  function yourMove() {
    var turn = document.getElementById("table-turn");
    return Boolean(turn && turn.dataset.yourMove === "true");
  }

  function update() {
    var yours = yourMove();
    document.title = yours ? PREFIX + baseTitle : baseTitle;
    if (yours && !wasYours) {
      if (stored(SOUND_KEY)) { chime(); }
      if (document.hidden) { notify(); }
      if (navigator.vibrate) {
        try { navigator.vibrate(120); } catch (error) { /* not allowed here */ }
      }
    }
    wasYours = yours;
  }

  function showToggle(button, on) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  if (soundToggle) {
    showToggle(soundToggle, stored(SOUND_KEY));
    soundToggle.addEventListener("click", function () {
      var on = !stored(SOUND_KEY);
      store(SOUND_KEY, on);
      showToggle(soundToggle, on);
      if (on) { chime(); }  // a sample, and the click lets the page play sound
    });
    // A remembered "on" needs one tap or key on the page before a browser lets it play.
    ["pointerdown", "keydown"].forEach(function (kind) {
      document.addEventListener(kind, function () { if (stored(SOUND_KEY)) { audioContext(); } }, {once: true});
    });
  }

  if (notifyToggle && "Notification" in window) {
    notifyToggle.hidden = false;
    showToggle(notifyToggle, stored(NOTIFY_KEY) && window.Notification.permission === "granted");
    notifyToggle.addEventListener("click", function () {
      if (stored(NOTIFY_KEY) && window.Notification.permission === "granted") {
        store(NOTIFY_KEY, false);
        showToggle(notifyToggle, false);
        return;
      }
      window.Notification.requestPermission().then(function (permission) {
        store(NOTIFY_KEY, permission === "granted");
        showToggle(notifyToggle, permission === "granted");
      });
    });
  }

  var alerts = document.getElementById("table-alerts");
  if (alerts) { alerts.hidden = false; }
  socketElt.addEventListener("htmx:wsAfterMessage", update);
  wasYours = yourMove();  // a page opened on your move is not a new turn
  update();
})();
