// When the player's turn at this table ends (table.js says so with a "turn-ended"
// event), ask which other table waits for their move longest and offer it, and bring
// the header's count, and app.js the app icon's, up to date.
"use strict";
(function () {
  const box = document.getElementById("next-table");
  if (!box) return;
  document.addEventListener("turn-ended", async () => {
    try {
      const answer = await fetch(box.dataset.ask, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (!answer.ok) return;
      const found = await answer.json();
      document.dispatchEvent(new CustomEvent("waiting-count", { detail: found.count }));
      const count = document.querySelector('[data-test="waiting-count"]');
      const label = document.querySelector('[data-test="waiting-label"]');
      if (count && label) {
        count.textContent = String(found.count);
        count.title = found.label;
        label.textContent = `(${found.label})`;
        count.hidden = label.hidden = !found.count;
      }
      if (!found.next) return;
      box.querySelector("a").href = found.next;
      box.hidden = false;
    } catch (error) {
      // Offline: the next poll of the table says so; the link is only a shortcut.
    }
  });
})();
