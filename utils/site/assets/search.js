// Search every page of the course site, both languages, offline: the index is a script (search-index.js,
// window.LM_SEARCH_INDEX = [{url, title, lang, text}]), so it loads from disk too (file://, no fetch).
(function () {
  "use strict";
  var root = document.currentScript.getAttribute("data-root") || "";

  function terms(query) {
    return query.toLowerCase().split(/\s+/).filter(function (t) { return t.length > 0; });
  }

  function score(entry, words) {
    var title = entry.title.toLowerCase(), text = entry.text.toLowerCase(), total = 0;
    for (var i = 0; i < words.length; i++) {
      var inTitle = title.indexOf(words[i]) >= 0, inText = text.indexOf(words[i]) >= 0;
      if (!inTitle && !inText) return 0;  // every word must occur
      total += (inTitle ? 10 : 0) + (inText ? 1 : 0);
    }
    return total;
  }

  function snippet(text, word) {
    var at = text.toLowerCase().indexOf(word);
    if (at < 0) return text.slice(0, 120);
    var start = Math.max(0, at - 50);
    return (start > 0 ? "…" : "") + text.slice(start, at + 70) + "…";
  }

  function search(query) {
    var words = terms(query), index = window.LM_SEARCH_INDEX || [];
    if (!words.length) return [];
    return index.map(function (entry) { return {entry: entry, score: score(entry, words)}; })
      .filter(function (hit) { return hit.score > 0; })
      .sort(function (a, b) { return b.score - a.score; })
      .slice(0, 12)
      .map(function (hit) { return {entry: hit.entry, snippet: snippet(hit.entry.text, words[0])}; });
  }

  function show(box, list) {
    var hits = search(box.value);
    list.innerHTML = "";
    hits.forEach(function (hit) {
      var item = document.createElement("li"), link = document.createElement("a"), text = document.createElement("div");
      link.href = root + hit.entry.url;
      link.textContent = hit.entry.title + (hit.entry.lang === "zh" ? " · 中文" : " · English");
      text.className = "lm-search-snippet";
      text.textContent = hit.snippet;
      item.appendChild(link);
      item.appendChild(text);
      list.appendChild(item);
    });
    list.setAttribute("data-hits", String(hits.length));
    list.hidden = !box.value.trim();
    if (box.value.trim() && !hits.length) {
      var none = document.createElement("li");
      none.textContent = box.getAttribute("data-none") || "no match";
      list.appendChild(none);
    }
  }

  window.lmSiteSearch = search;  // for the tests
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".lm-search").forEach(function (form) {
      var box = form.querySelector("input"), list = form.querySelector(".lm-search-results");
      box.addEventListener("input", function () { show(box, list); });
      form.addEventListener("submit", function (event) { event.preventDefault(); show(box, list); });
    });
  });
})();
