// gpu-advisor's web page: a little progressive JavaScript. Every page works without it (forms submit,
// links navigate); with it, questions that do not apply are hidden, the what-if panel updates the memo in
// place, and the theme, print and copy buttons appear. It requests nothing beyond this server.
"use strict";

(function () {
  var THEME_KEY = "gpu-advisor-theme";

  function setupTheme() {
    var button = document.getElementById("theme-toggle");
    var root = document.documentElement;
    var stored = null;
    try { stored = window.localStorage.getItem(THEME_KEY); } catch (e) { stored = null; }
    if (stored === "dark" || stored === "light") { root.dataset.theme = stored; }
    if (!button) { return; }
    function isDark() {
      if (root.dataset.theme) { return root.dataset.theme === "dark"; }
      return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    }
    function show() {
      var dark = isDark();
      button.setAttribute("aria-pressed", dark ? "true" : "false");
      button.textContent = button.dataset.dark;
    }
    button.hidden = false;
    show();
    button.addEventListener("click", function () {
      root.dataset.theme = isDark() ? "light" : "dark";
      try { window.localStorage.setItem(THEME_KEY, root.dataset.theme); } catch (e) { /* private mode */ }
      show();
    });
  }

  // Questions asked only when another answer says so (the questionnaire's `when`).
  function setupConditions() {
    var form = document.getElementById("questionnaire");
    if (!form) { return; }
    var conditional = form.querySelectorAll("[data-when-field]");
    function update() {
      conditional.forEach(function (item) {
        var control = form.elements.namedItem(item.dataset.whenField);
        var applies = control && control.value === item.dataset.whenEquals;
        item.hidden = !applies;
        item.querySelectorAll("input, select").forEach(function (input) { input.disabled = !applies; });
      });
    }
    form.addEventListener("change", update);
    update();
  }

  function setupButtons() {
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { window.print(); });
    });
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var field = document.getElementById(button.dataset.copy);
        var text = new URL(field.value, window.location.href).href;
        var label = button.textContent;
        function done() {
          button.textContent = button.dataset.done;
          window.setTimeout(function () { button.textContent = label; }, 2000);
        }
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(text).then(done, function () { field.select(); });
        } else {
          field.value = text;
          field.select();
          try { document.execCommand("copy"); done(); } catch (e) { /* the text stays selected */ }
        }
      });
    });
    // A printed memo shows what the details hold.
    var opened = [];
    window.addEventListener("beforeprint", function () {
      opened = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"), function (d) {
        d.open = true;
        return true;
      });
    });
    window.addEventListener("afterprint", function () {
      opened.forEach(function (d) { d.open = false; });
      opened = [];
    });
  }

  // What-if: the panel's answers evaluated on the server, the memo replaced in place.
  function setupWhatIf() {
    var form = document.getElementById("whatif-form");
    if (!form) { return; }
    var status = document.getElementById("whatif-status");
    var timer = null;
    var pending = null;

    form.querySelectorAll(".slider").forEach(function (slider) {
      var range = slider.querySelector("input[type=range]");
      var target = document.getElementById(range.dataset.target);
      var values = range.dataset.values.split("|");
      var labels = range.dataset.labels.split("|");
      var shown = slider.querySelector(".slider-value");
      slider.hidden = false;
      range.addEventListener("input", function () {
        var index = Number(range.value);
        target.value = values[index];
        range.setAttribute("aria-valuetext", labels[index]);
        shown.textContent = labels[index];
        schedule(350);
      });
    });
    form.querySelectorAll("input[type=text]").forEach(function (input) {
      input.addEventListener("change", function () { schedule(0); });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      schedule(0);
    });

    function schedule(delay) {
      if (timer) { window.clearTimeout(timer); }
      timer = window.setTimeout(update, delay);
    }

    function update() {
      var query = new URLSearchParams(new FormData(form));
      Array.from(query.keys()).forEach(function (key) {
        if (query.get(key) === "") { query.delete(key); }
      });
      var url = "/memo?" + query.toString();
      if (pending) { pending.abort(); }
      pending = new AbortController();
      var result = document.getElementById("result");
      result.setAttribute("aria-busy", "true");
      fetch(url, { headers: { Accept: "text/html" }, signal: pending.signal })
        .then(function (response) {
          return response.text().then(function (text) { return { ok: response.ok, text: text }; });
        })
        .then(function (answer) {
          var page = new DOMParser().parseFromString(answer.text, "text/html");
          result.removeAttribute("aria-busy");
          var problems = page.querySelector("#field-problems, #form-problems");
          if (!answer.ok || problems) {
            status.className = "problems";
            status.setAttribute("role", "alert");
            status.textContent = problems ? problems.textContent.replace(/\s+/g, " ").trim() : answer.text;
            return;
          }
          status.className = "visually-hidden";
          status.setAttribute("role", "status");
          replace(page, "#result");
          form.querySelectorAll(".slider-field").forEach(function (field) {
            var fresh = page.getElementById(field.id);
            if (!fresh) { return; }
            ["datalist", ".flip-marks", ".flips"].forEach(function (selector) {
              var old = field.querySelector(selector);
              var next = fresh.querySelector(selector);
              if (old && next) { old.replaceWith(document.importNode(next, true)); }
            });
            var range = field.querySelector("input[type=range]");
            var freshRange = fresh.querySelector("input[type=range]");
            if (range && freshRange && document.activeElement !== range) {
              range.value = freshRange.value;
              range.setAttribute("aria-valuetext", freshRange.getAttribute("aria-valuetext"));
              field.querySelector(".slider-value").textContent = fresh.querySelector(".slider-value").textContent;
            }
          });
          ["#share-url", "#edit-answers", "#save-workload", "#download-memo", "#lang-de", "#lang-en",
           "#currency-eur", "#currency-usd", "#currency-chf"].forEach(function (selector) {
            var old = document.querySelector(selector);
            var next = page.querySelector(selector);
            if (!old || !next) { return; }
            if (old.tagName === "INPUT") { old.value = next.value; } else { old.href = next.getAttribute("href"); }
          });
          var heading = document.getElementById("decision-heading");
          var cost = document.getElementById("decision-cost");
          status.textContent = heading.textContent.trim() + (cost ? ", " + cost.textContent.trim() : "");
          window.history.replaceState(null, "", url);
        })
        .catch(function (error) {
          if (error.name !== "AbortError") {
            result.removeAttribute("aria-busy");
            status.textContent = String(error);
          }
        });
    }

    function replace(page, selector) {
      var old = document.querySelector(selector);
      var next = page.querySelector(selector);
      if (old && next) { old.replaceWith(document.importNode(next, true)); }
    }
  }

  function start() {
    setupTheme();
    setupConditions();
    setupButtons();
    setupWhatIf();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
