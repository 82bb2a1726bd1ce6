// "Sign out of this browser": first stop push notices to it (at the server and in the
// browser, as the notice settings do), then post the form, whose answer makes the
// browser forget the site. Without scripts the form posts all the same, and the
// service worker, unregistered by that answer, takes its subscription with it.
import { unsubscribe } from "./push.js";

const form = document.querySelector("[data-sign-out-here]");
if (form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await unsubscribe();
    } catch {
      // Offline, or the server refused: the form's answer still ends the subscription.
    }
    form.submit();
  });
}
