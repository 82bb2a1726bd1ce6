// The settings' "Install the app": opens the steps for this device, offers the browser's
// own install prompt where there is one (Chromium's beforeinstallprompt; Safari has
// none, so an iPhone follows the steps), and says so once the page is the app.
"use strict";
(function () {
  const box = document.querySelector('[data-test="install-app"]');
  if (!box) return;
  const agent = navigator.userAgent;
  // iPadOS names itself a Mac, one with a touch screen.
  const ios = /iPhone|iPad|iPod/.test(agent) || (/Macintosh/.test(agent) && navigator.maxTouchPoints > 1);
  const platform = ios ? "ios" : /Android/.test(agent) ? "android" : "desktop";
  box.querySelector(`[data-platform="${platform}"]`).open = true;

  const installed = box.querySelector("[data-installed]");
  const offer = box.querySelector("[data-install-offer]");
  if (matchMedia("(display-mode: standalone)").matches || navigator.standalone) {
    installed.hidden = false;
    return;
  }
  let prompt = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // shown when the player asks, not at once
    prompt = event;
    offer.hidden = false;
  });
  window.addEventListener("appinstalled", () => {
    offer.hidden = true;
  });
  offer.querySelector("[data-install]").addEventListener("click", async () => {
    if (!prompt) return;
    prompt.prompt();
    await prompt.userChoice;
    prompt = null;
    offer.hidden = true;
  });
})();
