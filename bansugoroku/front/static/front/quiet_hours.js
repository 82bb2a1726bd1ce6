// The quiet hours part of the settings page: the time zone, the night and the days off,
// put through the API as a whole, which checks them as it does for the apps. Until the
// player has chosen a zone, this browser's is offered, if the server knows it.
import { saving, send } from "./settings_api.js";

const hour = (menu) => (menu.value === "" ? null : Number(menu.value));

function quietHoursForm(form) {
  form.hidden = false;
  const zone = form.elements.time_zone;
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if ("unchosen" in zone.dataset && [...zone.options].some((option) => option.value === here)) zone.value = here;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = {
      time_zone: zone.value,
      start_hour: hour(form.elements.start_hour),
      end_hour: hour(form.elements.end_hour),
      days_off: [...form.querySelectorAll("[name=days_off]:checked")].map((box) => Number(box.value)),
    };
    saving(form, () => send("PUT", "/players/me/quiet-hours", body, form.dataset.failed), form.dataset.saved);
  });
}

const form = document.querySelector("[data-quiet-form]");
if (form) quietHoursForm(form);
