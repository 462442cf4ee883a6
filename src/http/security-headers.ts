import type { Request, Response } from 'express';
import helmet from 'helmet';

type HeaderChanges = { set: [string, string][]; removed: string[] };

/**
 * What a helmet middleware does to a response, worked out once: its headers depend only on its
 * options, and running helmet on each request would rebuild them through a dozen middlewares.
 */
function headerChangesOf(middleware: ReturnType<typeof helmet>): HeaderChanges {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => set.set(name, String(value)),
    removeHeader: (name: string) => removed.push(name),
  };
  middleware({} as Request, recorder as unknown as Response, (error?: unknown) => {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- helmet's own failure, rethrown as it came
    if (error !== undefined) throw error;
  });
  return { set: [...set], removed };
}

/** A JSON answer never loads, runs or frames anything. */
export const API_HEADERS = headerChangesOf(
  helmet({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } }),
);

/**
 * Swagger UI loads its scripts and stylesheet from /docs itself, but has inline <style> blocks and data: images.
 * No upgrade-insecure-requests: the UI must also work when the service is reached over plain HTTP.
 */
const DOCS_HEADERS = headerChangesOf(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  }),
);

const SWAGGER_UI = /^\/docs(\/|$)/;

/** helmet's protective headers (and no X-Powered-By), with the policy the content of the path needs. */
export function setSecurityHeaders(request: Request, response: Response): void {
  const { set, removed } = SWAGGER_UI.test(request.path) ? DOCS_HEADERS : API_HEADERS;
  for (const [name, value] of set) response.setHeader(name, value);
  for (const name of removed) response.removeHeader(name);
}
