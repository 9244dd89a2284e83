import type { RequestHandler } from 'express';

/** Probed by orchestrators over plain HTTP inside the network. */
const EXEMPT_PATHS = new Set(['/healthz', '/readyz']);

/**
 * `REQUIRE_HTTPS`: a plain-HTTP request gets a 308 (method and body kept) to the same URL over
 * https. `req.secure` honours `X-Forwarded-Proto` only when `TRUST_PROXY` trusts the proxy, so
 * behind a TLS-terminating proxy set both; a client cannot fake the header past an untrusted hop.
 */
export function httpsRedirect(publicUrl: string): RequestHandler {
  const fallbackHost = new URL(publicUrl).host;
  return (req, res, next) => {
    if (req.secure || EXEMPT_PATHS.has(req.path)) return next();
    // An HTTP/1.0 request may come without a Host: send it to the public address.
    res.redirect(308, `https://${req.host || fallbackHost}${req.originalUrl}`);
  };
}
