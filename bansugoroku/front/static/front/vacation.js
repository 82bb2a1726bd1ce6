// The vacation part of the settings page: start one of some days, end it, and the
// auto-vacation switch, each through the API; the page, drawn by the server, shows the
// new state once it reloads.
import { saving, send } from "./settings_api.js";

function vacationForm(form) {
  form.hidden = false;
  const failed = form.dataset.failed;
  const then = (save) => saving(form, async () => {
    await save();
    window.location.reload();
  }, "");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const days = Number(form.querySelector("[name=days]").value);
    then(() => send("POST", "/players/me/vacation", { days }, failed));
  });
  const end = form.querySelector("[data-end]");
  if (end) end.addEventListener("click", () => then(() => send("DELETE", "/players/me/vacation", undefined, failed)));
  const auto = form.querySelector("[name=auto]");
  auto.addEventListener("change", () =>
    saving(form, () => send("PATCH", "/players/me/vacation", { auto: auto.checked }, failed), form.dataset.saved),
  );
}

const form = document.querySelector("[data-vacation-form]");
if (form) vacationForm(form);
