// On every page: what makes the site an app on a phone. Registers the service worker
// (/sw.js), which shows push notices and keeps the pages last seen for when there is no
// network; shows the count of tables waiting for the player's move on the app's icon
// (the Badging API, where the browser has it); and says when the page is offline, so
// that a page from the worker's copy is not taken for the current one and a move is not
// expected to go through.
"use strict";
(function () {
  // The worker marks a page it answered from its copy because the network failed.
  const kept = document.documentElement.hasAttribute("data-kept-copy");

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
  }

  // The header's count is the server's; next_table.js tells a newer one after a turn.
  function showCount(count) {
    if (!("setAppBadge" in navigator) || !navigator.onLine || kept) return; // an old count
    const done = count ? navigator.setAppBadge(count) : navigator.clearAppBadge();
    done.catch(() => null); // not installed, or the player turned badges off
  }
  const count = document.querySelector('[data-test="waiting-count"]');
  showCount(count ? Number(count.textContent) : 0);
  document.addEventListener("waiting-count", (event) => showCount(event.detail));

  function showOffline() {
    const notice = document.querySelector("[data-offline]");
    if (notice) notice.hidden = navigator.onLine && !kept;
  }
  window.addEventListener("online", showOffline);
  window.addEventListener("offline", showOffline);
  showOffline(); // deferred: the page is parsed
})();
