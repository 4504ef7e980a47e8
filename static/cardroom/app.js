// Behaviour every page shares. The Content-Security-Policy allows no inline script, event
// handler or style attribute, so pages say what they want in data- attributes and this runs it.
(function () {
  "use strict";

  // <select data-submit-on-change>: choosing a value submits its form (the site switchers).
  document.addEventListener("change", function (event) {
    if (event.target.matches("select[data-submit-on-change]")) event.target.form.submit();
  });

  // <div class="progress-bar" data-progress="40">: its width, set through the CSSOM (allowed).
  function sizeProgressBars(root) {
    root.querySelectorAll("[data-progress]").forEach(function (bar) {
      bar.style.width = bar.dataset.progress + "%";
    });
  }
  document.addEventListener("DOMContentLoaded", function () { sizeProgressBars(document); });
  document.addEventListener("htmx:load", function (event) { sizeProgressBars(event.target); });
})();
