// The profile's "Notifications on this device" switch (pigparlor/pwa). The browser asks
// for permission only when the player presses "Turn on"; the subscription goes to
// POST /push/subscriptions/, "Turn off" unsubscribes here and there.
(function () {
  "use strict";
  var panel = document.getElementById("push-device");
  if (!panel) { return; }
  var status = document.getElementById("push-status");
  var turnOn = panel.querySelector("[data-push-on]");
  var turnOff = panel.querySelector("[data-push-off]");

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
  }
  function post(url, body) {
    return fetch(url, {method: "POST", credentials: "same-origin", body: JSON.stringify(body),
                       headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken()}})
      .then(function (response) {
        return response.json().then(function (answer) {
          if (!response.ok) { throw new Error(answer.message || "the server refused"); }
          return answer;
        });
      });
  }
  function say(text) { status.textContent = text; }
  function show(on) { turnOn.hidden = on; turnOff.hidden = !on; }
  function keyBytes(base64url) {
    var text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(text, function (character) { return character.charCodeAt(0); });
  }
  function deviceName() {
    var agent = navigator.userAgent;
    var browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox"
      : /Chrom(e|ium)\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : "A browser";
    var system = /Android/.test(agent) ? "Android" : /iP(hone|ad|od)/.test(agent) ? "iOS"
      : /Mac OS X/.test(agent) ? "macOS" : /Windows/.test(agent) ? "Windows" : /Linux/.test(agent) ? "Linux" : "";
    return system ? browser + " on " + system : browser;
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(/iP(hone|ad|od)/.test(navigator.userAgent)
      ? "On an iPhone or iPad, add Pig Parlor to your home screen first (Share, then Add to Home Screen) and turn notifications on there."
      : "This browser cannot receive notifications.");
    return;
  }
  navigator.serviceWorker.ready.then(function (registration) {
    return registration.pushManager.getSubscription();
  }).then(function (subscription) {
    show(Boolean(subscription) && Notification.permission === "granted");
    say(subscription ? "Notifications are on for this device." : "Notifications are off for this device.");
  });

  turnOn.addEventListener("click", function () {
    turnOn.disabled = true;
    say("Asking your browser…");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        throw new Error(permission === "denied"
          ? "your browser blocks notifications from this site: allow them in its site settings"
          : "you did not allow notifications");
      }
      return Promise.all([navigator.serviceWorker.ready, fetch(panel.dataset.keyUrl).then(function (r) { return r.json(); })]);
    }).then(function (both) {
      return both[0].pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(both[1].public_key)});
    }).then(function (subscription) {
      var body = subscription.toJSON();
      body.device = deviceName();
      return post(panel.dataset.subscribeUrl, body);
    }).then(function () {
      show(true);
      say("Notifications are on for this device.");
    }).catch(function (error) {
      say("Notifications are still off: " + error.message + ".");
    }).then(function () { turnOn.disabled = false; });
  });

  turnOff.addEventListener("click", function () {
    turnOff.disabled = true;
    navigator.serviceWorker.ready.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) { return null; }
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () { return post(panel.dataset.unsubscribeUrl, {endpoint: endpoint}); });
    }).then(function () {
      show(false);
      say("Notifications are off for this device.");
    }).catch(function (error) {
      say("Could not turn notifications off: " + error.message + ".");
    }).then(function () { turnOff.disabled = false; });
  });
})();
