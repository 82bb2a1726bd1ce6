// The service worker: shows a push notice and opens its page when it is clicked.
// Served at /sw.js so that its scope is the whole site. The payload is the server's
// JSON: {kind, title, body, url, table}.

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { body: event.data.text() };
  }
  event.waitUntil(
    self.registration.showNotification(notice.title || "Ban-sugoroku", {
      body: notice.body || "",
      // A newer notice about the same table replaces the one shown.
      tag: notice.table || notice.kind || "bansugoroku",
      renotify: Boolean(notice.table),
      data: { url: sameSite(notice.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  event.waitUntil(focusOrOpen(url || "/"));
});

// Only a page of this site is opened: a notice can't send the player elsewhere.
function sameSite(url) {
  const home = new URL("/", self.location.origin);
  try {
    const target = new URL(url || "/", home);
    return target.origin === home.origin ? target.href : home.href;
  } catch {
    return home.href;
  }
}

async function focusOrOpen(url) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) {
    if (client.url === url && "focus" in client) {
      return client.focus();
    }
  }
  for (const client of windows) {
    if ("navigate" in client && "focus" in client) {
      await client.focus();
      return client.navigate(url);
    }
  }
  return self.clients.openWindow(url);
}
