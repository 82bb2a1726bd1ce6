// The settings page's forms save through the API with the player's cookie and the CSRF
// token, as the apps do: these send a setting and say how it went.

function csrfToken() {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : "";
}

// Sends one setting to the API and resolves to the answer's JSON; rejects with the API's own words
// (problem+json's detail, or a field's errors) or the form's "could not save".
export async function send(method, path, body, fallback) {
  let answer;
  try {
    answer = await fetch("/api/v1" + path, {
      method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Error(fallback);
  }
  const json = await answer.json().catch(() => ({}));
  if (answer.ok) return json;
  const fields = Object.values(json.errors || {}).flat();
  throw new Error(fields.join(" ") || json.detail || fallback);
}

// Runs `save` while the form's buttons are off, then says how it went.
export async function saving(form, save, done) {
  const message = form.querySelector("[data-message]");
  const controls = form.querySelectorAll("button, input");
  controls.forEach((c) => (c.disabled = true));
  message.textContent = "";
  try {
    await save();
    message.textContent = done;
  } catch (error) {
    message.textContent = error.message;
  } finally {
    controls.forEach((c) => (c.disabled = false));
  }
}
