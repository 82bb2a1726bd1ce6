// The notice part of the settings page: the e-mail address, the choices per kind and
// channel, and push in this browser, each saved through the API with the player's
// cookie and the CSRF token, as the apps save them. Every sentence comes translated in
// the page's data attributes; the page's CSS shows the address's state.
import { subscribe, supported, unsubscribe } from "./push.js";
import { saving, send } from "./settings_api.js";

function emailForm(form) {
  form.hidden = false;
  const input = form.querySelector("[name=email]");
  const show = async () => {
    const { email } = await send("GET", "/players/me/notices", undefined, form.dataset.failed);
    form.dataset.emailState = !email
      ? "none"
      : email.confirmed
        ? "confirmed"
        : email.mail_failed
          ? "failed"
          : "waiting";
    form.querySelector("[data-address]").textContent = email ? email.address : "";
  };
  const setAddress = (email, done) =>
    saving(form, async () => {
      try {
        await send("PATCH", "/players/me", { email }, form.dataset.failed);
      } finally {
        await show(); // a refused change may still have kept something: show what holds
      }
    }, done);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    setAddress(input.value.trim(), form.dataset.saved);
  });
  form.querySelector("[data-resend]").addEventListener("click", () => {
    setAddress(form.querySelector("[data-address]").textContent, form.dataset.saved);
  });
  form.querySelector("[data-remove]").addEventListener("click", () => {
    setAddress(null, form.dataset.removed).then(() => {
      if (form.dataset.emailState === "none") input.value = "";
    });
  });
}

function choicesForm(form) {
  form.hidden = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const kinds = {};
    for (const box of form.querySelectorAll("input[type=checkbox]:not([data-reply])")) {
      kinds[box.name] = { ...kinds[box.name], [box.value]: box.checked };
    }
    const mode = form.querySelector("input[name=email_mode]:checked");
    const body = { kinds, ...(mode && { email_mode: mode.value }) };
    for (const box of form.querySelectorAll("input[data-reply]")) body[box.name] = box.checked;
    const reminders = [...form.querySelectorAll("select[name=clock_reminder]")].map((menu) => menu.value);
    body.clock_reminders = reminders.filter(Boolean).map(Number);
    saving(form, () => send("PATCH", "/players/me/notices", body, form.dataset.failed), form.dataset.saved);
  });
}

async function subscribed() {
  if (Notification.permission !== "granted") return false;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return Boolean(registration && (await registration.pushManager.getSubscription()));
}

async function pushHere(part) {
  part.hidden = false;
  if (!supported() || "pushOff" in part.dataset) {
    part.querySelector("[data-push-none]").hidden = false;
    return;
  }
  const box = part.querySelector("[data-push-toggle]");
  box.checked = await subscribed();
  part.querySelector("[data-push-controls]").hidden = false;
  box.addEventListener("change", async () => {
    const message = part.querySelector("[data-message]");
    const wanted = box.checked;
    box.disabled = true;
    message.textContent = "";
    try {
      if (wanted) {
        const saved = await subscribe();
        if (!saved) message.textContent = part.dataset.refused;
        box.checked = Boolean(saved);
      } else {
        await unsubscribe();
        box.checked = false;
      }
    } catch {
      message.textContent = part.dataset.failed;
      box.checked = await subscribed().catch(() => !wanted);
    }
    box.disabled = false;
  });
}

const email = document.querySelector("[data-email-form]");
const choices = document.querySelector("[data-notice-form]");
const push = document.querySelector("[data-push]");
if (email) emailForm(email);
if (choices) choicesForm(choices);
if (push) pushHere(push);
