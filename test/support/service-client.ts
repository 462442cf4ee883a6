import { checkedFetch } from './openapi-check.js';
import { PRIVATE_KEY } from './test-app.js';

export interface Reply {
  status: number;
  body: Record<string, any>;
  /** How long the answer took, in milliseconds. */
  ms: number;
}

/** A JSON request to a service process on a loopback port, as a client would send it (fetch, keep-alive); the response held to openapi.json. */
export async function send(port: number, method: string, path: string, body?: unknown, key: string | null = PRIVATE_KEY): Promise<Reply> {
  const started = Date.now();
  const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  const response = await checkedFetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : JSON.parse(text), ms: Date.now() - started };
}

/** Retries `attempt` until it returns true or `withinMs` has passed; resolves to whether it ever did. */
export async function eventually(attempt: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await attempt().catch(() => false)) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}
