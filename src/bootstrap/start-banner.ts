import type { BootstrapKey } from './bootstrap.service.js';

const RULE = '─'.repeat(78);

/**
 * The last thing the first start prints: the keys it made, where the API is and its Swagger UI.
 * Plain text, not a log line: shown once to the operator, never shipped with the logs' fields.
 */
export function startBanner(port: number, keys: BootstrapKey[], docsEnabled: boolean): string {
  const origin = `http://localhost:${port}`;
  const keyLines = keys.map(({ type, value, source }) =>
    source === undefined ? `  ${type.padEnd(12)} ${value}` : `  ${type.padEnd(12)} the value of ${source}`,
  );
  return [
    '',
    RULE,
    'Bootstrapped an empty database with one organization and one workspace. Its API keys:',
    ...keyLines,
    'Store them now: only their digests are kept, and this is not shown again.',
    '',
    `  API          ${origin}/api/cloud`,
    ...(docsEnabled ? [`  Swagger UI   ${origin}/docs   (Authorize with the PRIVATE key)`] : []),
    RULE,
    '',
    '',
  ].join('\n');
}
