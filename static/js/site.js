// What every page does. The Content Security Policy allows no inline script or
// handler attribute, so the templates mark elements with data- attributes instead:
//
// - this script's data-service-worker: the service worker to register (root scope);
// - a[data-follow]: a link to follow as soon as it is on the page (the waiting
//   room's socket pushes "the cards are dealt" with one);
// - button[data-copy="ID"]: copies the value of the field #ID (the invite link); with
//   data-share too, it shares the link with the Web Share API where there is one;
// - input[data-select-on-focus]: selects its text when focused;
// - [data-salt] on a form or an htmx button that takes a seat: the request carries
//   "salt", fresh random bytes this browser adds to the deal (docs/fairness.md);
// - body[data-badge]: where to ask how many tables wait on you, for the app icon's badge;
// - #inbox-button: opens and closes the notifications menu (#inbox-panel) in the header; Escape
//   or a click elsewhere closes it. The player socket keeps its list (#inbox-items) fresh;
// - [data-install]: shown when the browser offers to install the app (beforeinstallprompt),
//   and [data-ios-install]: shown in iOS Safari, which never does (add to home screen by hand).
// - A press holds a live area's frames. A frame that replaces the control under a finger
//   (or under Space or Enter) between its down and its up loses the tap: the up lands on
//   the control's twin, so no click. While a press is on a control (a button, link, label
//   or [role=button]) inside a socket's area ([ws-connect]: the lobby's listing, the waiting
//   room, the tournament pages, the table), that area's frames wait and are swapped, in
//   order, once the press has ended and its click was dispatched: PRESS_HOLD_MS at most.
//   An area marked data-paced queues its frames itself (the table: table.js paces them
//   too) and asks window.pigParlorPress; inside [data-realtime="true"] (Oink!) nothing is
//   held: a finger resting on the board must not hold back the next card.
// - A press reaches the control's twin when a frame replaced the control anyway (Oink!,
//   where nothing is held; a press longer than PRESS_HOLD_MS): a control keeps an identity
//   across frames (its id, or its kind, card, key, name, value, target address and label
//   under the same part), and a press whose control left the page without a click clicks
//   the twin, once.
// - Focus survives a frame in every live area: a focused control replaced by its twin
//   gives the twin the focus, so the next key press is not lost on the page's body.
(function () {
  "use strict";
  function randomSalt() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  window.pigParlorSalt = randomSalt;

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest("[data-salt]")) { event.detail.parameters.salt = randomSalt(); }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-salt]")) { return; }
    var field = form.querySelector("input[name=salt]");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "salt";
      form.appendChild(field);
    }
    field.value = randomSalt();
  }, true);
  var PRESS_HOLD_MS = 1000;
  var CONTROL = "button, a, label, [role=button]";
  var press = {area: null, count: 0, timer: null};  // count: an up's late end must not end the next press
  var pressEndListeners = [];
  var heldFrames = [];

  // -- a control's identity across frames ------------------------------------------
  var IDENTITY = ["data-card", "data-key", "aria-controls", "name", "value", "href", "hx-post", "aria-label"];

  function partOf(control) { return control.parentElement && control.parentElement.closest("[id]"); }

  // What names a control whatever its version: its kind, card, key, name, value, target and label.
  function controlKey(control) {
    var form = control.closest("form");
    var key = [control.tagName, control.classList[0] || "",
               form ? (form.getAttribute("action") || "") + " " + (form.getAttribute("hx-post") || "") : ""];
    IDENTITY.forEach(function (name) { key.push(control.getAttribute(name) || ""); });
    return key.join("|");
  }

  function sameKey(part, tag, key) {
    return Array.prototype.filter.call(part.querySelectorAll(tag), function (candidate) {
      return partOf(candidate) === part && controlKey(candidate) === key;
    });
  }

  function identity(control) {
    if (!control || !control.closest) { return null; }
    if (control.id) { return {id: control.id}; }
    var part = partOf(control);
    if (!part) { return null; }
    var key = controlKey(control);
    return {part: part.id, tag: control.tagName, key: key, index: Math.max(0, sameKey(part, control.tagName, key).indexOf(control))};
  }

  // The element on the page now that is ``wanted``'s control (itself while it is still there).
  function twinOf(wanted) {
    if (!wanted) { return null; }
    if (wanted.id) { return document.getElementById(wanted.id); }
    var part = document.getElementById(wanted.part);
    return part ? sameKey(part, wanted.tag, wanted.key)[wanted.index] || null : null;
  }

  // -- a press that a frame took the control from reaches the twin -----------------------
  var pressed = null;  // {control, identity, clicked}

  function pressedControl(event) {
    var target = event.target;
    var control = target && target.closest ? target.closest(CONTROL) : null;
    return control && control.closest("[ws-connect]") ? control : null;
  }

  function notePressed(event) {
    var control = pressedControl(event);
    pressed = control ? {control: control, identity: identity(control), clicked: false} : null;
  }

  document.addEventListener("click", function (event) {
    if (!pressed || !event.target || !event.target.closest) { return; }
    var control = event.target.closest(CONTROL);
    if (control && (control === pressed.control || control === twinOf(pressed.identity))) { pressed.clicked = true; }
  }, true);

  function pressReleased() {
    var mine = pressed;
    if (!mine) { return; }
    // The click follows the up (a touch's a moment later): look once it had its chance.
    window.setTimeout(function () {
      if (pressed === mine) { pressed = null; }
      if (mine.clicked || mine.control.isConnected) { return; }
      var twin = twinOf(mine.identity);
      if (twin && !twin.disabled && twin.getAttribute("aria-disabled") !== "true") { twin.click(); }
    }, 60);
  }

  // -- focus survives a frame ----------------------------------------------------------
  var focusWanted = null;

  function noteFocus() {
    var active = document.activeElement;
    focusWanted = active && active !== document.body && active.closest && active.closest("[ws-connect]")
      ? identity(active) : null;
  }

  function restoreFocus() {
    var wanted = focusWanted;
    focusWanted = null;
    var active = document.activeElement;
    if (!wanted || (active && active !== document.body)) { return; }  // kept, or moved on purpose
    var twin = twinOf(wanted);
    if (twin && !twin.disabled) { twin.focus({preventScroll: true}); }
  }
  document.addEventListener("htmx:wsBeforeMessage", noteFocus, true);
  document.addEventListener("htmx:wsAfterMessage", restoreFocus, true);

  function pressedArea(event) {
    var control = pressedControl(event);
    var area = control && control.closest("[ws-connect]");
    return area && !area.closest('[data-realtime="true"]') ? area : null;
  }

  function pressStarts(event) {
    notePressed(event);
    var area = pressedArea(event);
    if (!area) { return; }
    press.area = area;
    press.count += 1;
    window.clearTimeout(press.timer);
    press.timer = window.setTimeout(pressEnds, PRESS_HOLD_MS);
  }

  function pressEnds() {
    if (!press.area) { return; }
    press.area = null;
    window.clearTimeout(press.timer);
    press.timer = null;
    var frames = heldFrames;
    heldFrames = [];
    frames.forEach(function (held) { swapFrame(held.area, held.message, held.socket); });
    pressEndListeners.forEach(function (listener) { listener(); });
  }

  // A frame swapped later, as the socket extension would have swapped it (its parts are
  // hx-swap-oob), then announced like a frame that just came.
  function swapFrame(area, message, socket) {
    noteFocus();
    window.htmx.swap(area, message, {swapStyle: "none"});
    window.htmx.trigger(area, "htmx:wsAfterMessage", {message: message, socketWrapper: socket, replayed: true});
  }

  document.addEventListener("pointerdown", pressStarts, true);
  document.addEventListener("keydown", function (event) {
    if ((event.key === " " || event.key === "Enter") && !event.repeat) { pressStarts(event); }
  }, true);
  // The click follows the up (a touch's a moment later): the press ends after it.
  ["pointerup", "pointercancel", "keyup"].forEach(function (kind) {
    document.addEventListener(kind, function (event) {
      if (kind === "pointerup" || (kind === "keyup" && (event.key === " " || event.key === "Enter"))) { pressReleased(); }
      if (kind === "pointercancel") { pressed = null; }  // a scroll, not a tap
      if (!press.area) { return; }
      var count = press.count;
      window.setTimeout(function () { if (count === press.count) { pressEnds(); } }, 50);
    }, true);
  });
  document.addEventListener("visibilitychange", function () { if (document.hidden) { pressEnds(); } });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var area = event.target;
    if (event.defaultPrevented || press.area !== area || area.hasAttribute("data-paced")) { return; }
    event.preventDefault();
    heldFrames.push({area: area, message: event.detail.message, socket: event.detail.socketWrapper});
  });

  window.pigParlorPress = {
    on: function (area) { return press.area === area; },   // a press is on a control of this area
    onEnd: function (listener) { pressEndListeners.push(listener); },
    swap: swapFrame,
    identity: identity,  // a control's identity across frames, and the control it names now
    twinOf: twinOf
  };

  var serviceWorker = document.currentScript && document.currentScript.dataset.serviceWorker;
  if (serviceWorker && "serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(serviceWorker, {scope: "/"});
    });
  }

  function followMarkedLink() {
    var link = document.querySelector("a[data-follow]");
    if (link) { window.location.assign(link.href); }
  }
  document.addEventListener("DOMContentLoaded", followMarkedLink);
  document.addEventListener("htmx:wsAfterMessage", followMarkedLink);

  // What was copied stays marked "Copied" when a frame redraws its part (a room's
  // socket sends its first frame just after the page loads: a quick click was undone).
  var copied = {};

  function markCopied() {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      var field = document.getElementById(button.dataset.copy);
      if (field && copied[field.value]) { button.textContent = "Copied"; }
    });
  }
  document.addEventListener("htmx:wsAfterMessage", markCopied);

  function copy(button, field) {
    var done = function () { copied[field.value] = true; markCopied(); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done);
      return;
    }
    field.focus();
    field.select();
    if (document.execCommand("copy")) { done(); }
  }

  function labelShareButtons() {
    if (!navigator.share) { return; }
    document.querySelectorAll("button[data-copy][data-share]").forEach(function (button) {
      if (!button.dataset.shareReady) { button.textContent = "Share"; button.dataset.shareReady = "1"; }
    });
  }
  document.addEventListener("DOMContentLoaded", labelShareButtons);
  document.addEventListener("htmx:wsAfterMessage", labelShareButtons);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    var field = button && document.getElementById(button.dataset.copy);
    if (!field) { return; }
    if (button.dataset.share !== undefined && navigator.share) {
      navigator.share({title: document.title, text: button.dataset.share || "Come and play at my table", url: field.value})
        .catch(function () {});
      return;
    }
    copy(button, field);
  });

  // Install: the browser's own prompt, kept until the player presses our button.
  var installPrompt = null;
  function showAll(selector, shown) {
    document.querySelectorAll(selector).forEach(function (element) { element.hidden = !shown; });
  }
  window.addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault();
    installPrompt = event;
    if (!localStorage.getItem("pigparlor-install-later")) { showAll("[data-install]", true); }
  });
  window.addEventListener("appinstalled", function () { installPrompt = null; showAll("[data-install]", false); });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-install-later]")) {
      localStorage.setItem("pigparlor-install-later", "1");
      showAll("[data-install]", false);
      return;
    }
    if (!installPrompt || !(event.target.closest && event.target.closest("[data-install-now]"))) { return; }
    installPrompt.prompt();
    installPrompt.userChoice.then(function () { installPrompt = null; showAll("[data-install]", false); });
  });

  var standalone = window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
  var iosSafari = /iP(hone|ad|od)/.test(navigator.userAgent) && !/CriOS|FxiOS|EdgiOS/.test(navigator.userAgent);
  document.addEventListener("DOMContentLoaded", function () {
    if (iosSafari && !standalone && !localStorage.getItem("pigparlor-ios-hint-closed")) { showAll("[data-ios-install]", true); }
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-ios-install] button")) {
      localStorage.setItem("pigparlor-ios-hint-closed", "1");
      showAll("[data-ios-install]", false);
    }
  });

  // The app icon's badge: how many of your tables wait on your move.
  function refreshBadge() {
    var url = document.body && document.body.dataset.badge;
    if (!url || !navigator.setAppBadge) { return; }
    fetch(url, {credentials: "same-origin"}).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (answer) {
      if (!answer) { return; }
      (answer.waiting > 0 ? navigator.setAppBadge(answer.waiting) : navigator.clearAppBadge()).catch(function () {});
    }).catch(function () {});
  }
  window.addEventListener("load", refreshBadge);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { refreshBadge(); } });

  // The notifications menu: a disclosure button and its panel.
  function inboxOpen(open, focusButton) {
    var button = document.getElementById("inbox-button");
    var panel = document.getElementById("inbox-panel");
    if (!button || !panel) { return; }
    button.setAttribute("aria-expanded", open ? "true" : "false");
    panel.hidden = !open;
    if (!open && focusButton) { button.focus(); }
  }
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) { return; }
    if (target.closest("#inbox-button")) {
      inboxOpen(document.getElementById("inbox-panel").hidden, false);
    } else if (!target.closest("#inbox-panel")) {
      inboxOpen(false, false);
    }
  });
  document.addEventListener("keydown", function (event) {
    var panel = document.getElementById("inbox-panel");
    if (event.key === "Escape" && panel && !panel.hidden) { inboxOpen(false, true); }
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input[data-select-on-focus]")) { event.target.select(); }
  });
})();
