/** How many times a refused request is sent again, and the longest wait between two tries. */
const RETRIES = 4;
const MAX_WAIT_MS = 5_000;

/**
 * `fetch` that sends a request again when the server refused it for now: 503 (Postgres or Redis
 * unavailable, or a busy instance's readiness look timing out: services/api/src/http/dependency-gate.ts)
 * and 429 (rate limited). Either answer means the request did nothing, or, for a write that
 * failed part-way on the server, that it was rolled back (each request is atomic: the single
 * routes and the bulk ones, docs/monitors.md, "Bulk create and update"), so trying again is safe;
 * a create tried again cannot make a duplicate, since its key is unique (docs/config-as-code.md).
 * A GET that meets a broken connection (the server closed a kept-alive socket as it was
 * reused: "fetch failed") is sent again too: it changes nothing. A write is not, since it may
 * have been done. It waits as `Retry-After` says, else 0.5, 1, 2, 4 s, at most 5 s a time.
 */
export function retryingFetch(inner: typeof fetch = fetch, sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))): typeof fetch {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      const isRead = (init?.method ?? 'GET').toUpperCase() === 'GET';
      let response: Response;
      try {
        response = await inner(input, init);
      } catch (err) {
        if (!isRead || attempt === RETRIES) throw err;
        await sleep(500 * 2 ** attempt);
        continue;
      }
      if ((response.status !== 503 && response.status !== 429) || attempt === RETRIES) return response;
      const after = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      await sleep(Math.min(MAX_WAIT_MS, Number.isFinite(after) && after > 0 ? after * 1000 : 500 * 2 ** attempt));
    }
  };
}
