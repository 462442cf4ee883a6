import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** One line at the end of a run: how many responses were held to openapi.json, and how much of it they covered. */
export default function tearDown() {
  const log = process.env.OPENAPI_RESPONSE_LOG;
  if (log === undefined) return;
  const checked = existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => JSON.parse(line))
    : [];
  rmSync(dirname(log), { recursive: true, force: true });
  const document = JSON.parse(readFileSync(resolve('openapi.json'), 'utf8'));
  const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, { responses }]) => Object.keys(responses).map((status) => `${method.toUpperCase()} ${path} ${status}`)),
  );
  const seen = new Set(checked);
  const covered = documented.filter((response) => seen.has(response)).length;
  console.log(
    `\nopenapi: ${checked.length} responses matched openapi.json; they cover ${covered} of its ${documented.length} documented responses (operation × status)`,
  );
}
