// Fills the join form's hidden entropy field with this browser's own randomness, mixed
// into the next game's dice, so that neither the server nor the opponent chooses them.
"use strict";
for (const field of document.querySelectorAll('input[name="entropy"]')) {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  field.value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
