/** A request handler in the shape of `kit.http.fetch` (web-standard Request in, Response out). */
export type RequestHandler = (request: Request) => Promise<Response>;

/**
 * An outbound `fetch` that delivers requests for the given origins to in-process handlers — no sockets, no ports —
 * and everything else to `fallback` (default: the global fetch). Link a wallet kit to an issuer kit:
 *
 * ```ts
 * const issuer = await createTestKit({ config: { app: { coreBaseUrl: "https://issuer.example" } } });
 * const wallet = await createTestKit({ fetch: linkKits({ "https://issuer.example": issuer.http.fetch }) });
 * ```
 *
 * Origins are compared after URL normalisation (`https://Issuer.example:443` is `https://issuer.example`).
 */
export function linkKits(routes: Record<string, RequestHandler>, fallback?: typeof fetch): typeof fetch {
  const handlers = new Map<string, RequestHandler>();
  for (const [origin, handler] of Object.entries(routes)) handlers.set(new URL(origin).origin, handler);
  const next: typeof fetch = fallback ?? ((input, init) => globalThis.fetch(input, init));
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const handler = handlers.get(new URL(request.url).origin);
    if (handler === undefined) return next(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    return handler(request);
  };
}
