// What every page does. The Content Security Policy allows no inline script or
// handler attribute, so the templates mark elements with data- attributes instead:
//
// - this script's data-service-worker: the service worker to register (root scope);
// - a[data-follow]: a link to follow as soon as it is on the page (the waiting
//   room's socket pushes "the cards are dealt" with one);
// - button[data-copy="ID"]: copies the value of the field #ID (the invite link);
// - input[data-select-on-focus]: selects its text when focused.
(function () {
  "use strict";
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

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    var field = button && document.getElementById(button.dataset.copy);
    if (!field || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(field.value).then(function () { button.textContent = "Copied"; });
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input[data-select-on-focus]")) { event.target.select(); }
  });
})();
