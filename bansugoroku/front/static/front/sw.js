// The service worker: shows a push notice and opens its page when it is clicked, and
// keeps the last copy of the static files and of the pages the server lets it keep
// (those not `no-store`: "my tables", each table, the rules; never a page with an
// address, a name in a form or a link's secret, bansugoroku/front/page_caching.py), so
// that the installed app shows the player's tables and each table as last loaded when
// there is no network
// (app.js then says the page may be out of date; table.js shows the newer state of the
// table it kept in the browser, if any). The table page's polls of the API
// pass by: their ETag revalidation stays the browser's, and a failed one says so.
// Served at /sw.js so that its scope is the whole site. The push payload is the
// server's JSON: {kind, title, body, url, table}.

const CACHE = "last-seen-v2"; // v1 kept every page: deleted on activation

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim(); // the page that registered it works offline too
    })(),
  );
});

// The network first, always: only when it fails is the kept copy used. Only reads are
// kept and answered: a move (a POST) goes to the network or fails, never queued. The
// admin's pages are the staff's, not the player's app: never kept.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const kept =
    request.method === "GET" &&
    url.origin === self.location.origin &&
    ((request.mode === "navigate" && !url.pathname.startsWith("/admin/")) ||
      url.pathname.startsWith("/static/"));
  if (kept) event.respondWith(networkFirst(request));
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok && !answer.redirected && mayKeep(answer)) {
      await cache.put(request, answer.clone());
    }
    return answer;
  } catch (error) {
    const copy = await cache.match(request);
    if (!copy) throw error;
    return request.mode === "navigate" ? marked(copy) : copy;
  }
}

function mayKeep(answer) {
  return !/no-store/i.test(answer.headers.get("Cache-Control") || "");
}

// A page from the kept copy says so on its <html> element, and app.js tells the player
// it may be out of date: the browser may think itself online all the while (a network
// that answers nothing, a server that is down).
async function marked(page) {
  const html = (await page.text()).replace("<html ", "<html data-kept-copy ");
  return new Response(html, { status: page.status, headers: page.headers });
}

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { body: event.data.text() };
  }
  // The installed app's icon counts the tables waiting, also while no page is open.
  if (Number.isInteger(notice.badge) && self.navigator.setAppBadge) {
    self.navigator.setAppBadge(notice.badge).catch(() => {});
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
    // Only a page this worker controls can be sent elsewhere; any other is left alone.
    const opened = await client.navigate(url).catch(() => null);
    if (opened) {
      // Focusing may be refused (the tap no longer counts by then): the page is open.
      await opened.focus().catch(() => null);
      return opened;
    }
  }
  return self.clients.openWindow(url);
}
