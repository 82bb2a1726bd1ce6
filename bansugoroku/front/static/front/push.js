// Push notices in this browser: subscribe() asks the player's permission, registers the
// service worker (/sw.js) and sends the subscription to the server; unsubscribe() undoes
// both. The page is signed in by its HttpOnly cookie, so each change sends Django's CSRF
// token (the csrftoken cookie) in X-CSRFToken.

const API = "/api/v1";

function csrfToken() {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : "";
}

async function call(method, path, body) {
  const response = await fetch(API + path, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok && response.status !== 404) {
    const problem = await response.json().catch(() => ({}));
    throw new Error(problem.detail || `${method} ${path}: ${response.status}`);
  }
  return response;
}

function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const text = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

// Resolves to the subscription the server now has, or null when push can't be used here
// (no support, the player said no, or the server sends no push).
export async function subscribe() {
  if (!supported() || (await Notification.requestPermission()) !== "granted") {
    return null;
  }
  const keyAnswer = await fetch(`${API}/push/vapid-public-key`);
  if (!keyAnswer.ok) {
    return null;
  }
  const { public_key: publicKey } = await keyAnswer.json();
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  const current = subscription && subscription.options.applicationServerKey;
  if (current && !sameKey(new Uint8Array(current), keyBytes(publicKey))) {
    await subscription.unsubscribe(); // made with another server key: useless now
    subscription = null;
  }
  subscription ||= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  });
  const answer = await call("POST", "/players/me/push-subscriptions", subscription.toJSON());
  return answer.json();
}

// Stops notices to this browser, at the server and in the browser.
export async function unsubscribe() {
  if (!supported()) {
    return;
  }
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = registration && (await registration.pushManager.getSubscription());
  if (!subscription) {
    return;
  }
  await call("DELETE", "/players/me/push-subscriptions", { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

function sameKey(a, b) {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
