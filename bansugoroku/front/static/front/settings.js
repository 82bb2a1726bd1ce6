// The display name changes through the API, which checks it as it does for the apps;
// the browser's player cookie authenticates the request, with the CSRF token.
"use strict";
(function () {
  const form = document.querySelector("[data-name-form]");
  if (!form) return;
  form.hidden = false; // it saves through the API, so it shows only where scripts run
  const message = form.querySelector("[data-message]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = form.querySelector("[name=csrfmiddlewaretoken]").value;
    const name = form.querySelector("[name=name]").value;
    let answer;
    try {
      answer = await fetch("/api/v1/players/me", {
        method: "PATCH",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token },
        body: JSON.stringify({ name }),
      });
    } catch (error) {
      message.textContent = form.dataset.failed;
      return;
    }
    if (answer.ok) {
      message.textContent = form.dataset.saved;
      return;
    }
    const problem = await answer.json().catch(() => ({}));
    const field = problem.errors && problem.errors.name;
    message.textContent = (field && field.join(" ")) || problem.detail || form.dataset.failed;
  });
})();
