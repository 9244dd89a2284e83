import type { ErrorRequestHandler, Request, Response } from 'express';

/**
 * For a router whose answers a browser or an `<img>` reads (HTML, SVG): a path parameter Express
 * could not decode (`/status/%FF`) names nothing that exists, so it gets the router's own
 * not-found answer in its own content type, not the API's JSON error envelope
 * (docs/status-pages.md). Any other error goes on to the app's error handler.
 */
export function malformedEscapeAnswers(notFound: (req: Request, res: Response) => void): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (err instanceof URIError) notFound(req, res);
    else next(err);
  };
}
