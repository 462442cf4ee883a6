#!/usr/bin/env node
// Searches log files for every secret the suites use, and prints each hit (zero expected):
//
//   node test/support/secrets-sweep.mjs <log file> [<log file> …]
//
// What it looks for, collected from the sources of the suites (test/, src/**/*.spec.ts, .ci/, bench/):
// - key literals (`sk_…`, `ok_…`, `pk_…`) and `Bearer …` literals;
// - string literals that name themselves secret (`secret`, `password`, `hunter2`, `token`…);
// - encryption keys: literals given to ENCRYPTION_KEY / ENCRYPTION_KEY_PREVIOUS, 64-hex and 44-base64 literals;
// - the random markers of secretValue(…) in test/support/secret-values.ts: `<label>-<24 hex digits>`;
// - any value shaped like a generated private or organization key (`sk_`/`ok_` and 43 base64url characters).
// Exits 1 when something is found, 0 otherwise; each line with a hit is printed as file:line and what it holds, masked.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['test', 'src', '.ci', 'bench'];
const SKIPPED_DIRS = new Set(['node_modules', 'generated', 'dist', 'results']);
const SOURCE_FILE = /(\.spec\.ts|\.e2e-spec\.ts|\/test\/.*\.(ts|mjs|js)|\/bench\/.*\.(mjs|js)|\/\.ci\/[^/.]+|\/\.ci\/.*\.(sh|yaml|mjs))$/;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function sourceFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) found.push(...sourceFiles(path));
    } else if (SOURCE_FILE.test(path)) {
      found.push(path);
    }
  }
  return found;
}

/** What to look for, from the literals in the suites' sources: each a name to print and a pattern. */
function secretPatterns() {
  const patterns = new Map();
  const literal = (kind, value) => {
    if (value.includes('${') || value.includes('…')) return;
    patterns.set(`${kind} ${value}`, { name: `${kind} ${mask(value)}`, pattern: new RegExp(escape(value)) });
  };
  for (const file of SOURCE_DIRS.flatMap((dir) => (statSync(join(ROOT, dir), { throwIfNoEntry: false }) ? sourceFiles(join(ROOT, dir)) : []))) {
    const text = readFileSync(file, 'utf8');
    for (const [value] of text.matchAll(/\b(?:sk|ok|pk)_[A-Za-z0-9_-]{16,}/g)) literal('key', value);
    for (const [value] of text.matchAll(/Bearer [A-Za-z0-9._~+/=-]{4,}/g)) literal('bearer', value);
    for (const [, value] of text.matchAll(/ENCRYPTION_KEY(?:_PREVIOUS)?['"]?\s*[:=]\s*['"`]([^'"`]{16,})['"`]/g)) literal('encryption key', value);
    for (const [, value] of text.matchAll(/['"`]([0-9a-f]{64}|[A-Za-z0-9+/]{43}=)['"`]/g)) literal('encryption key', value);
    // Token-like literals only (no spaces or slashes, a digit or a separator): `zz-secret`, `hunter2`, not the word `secret` or a file path.
    for (const [, value] of text.matchAll(/['"`]([^'"`\s]{6,200})['"`]/g)) {
      if (/secret|password|hunter2|tok-|token-/i.test(value) && /[-_=:0-9]/.test(value) && !value.includes('/')) literal('secret literal', value);
    }
  }
  // secretValue(label) of test/support/secret-values.ts: `<label>-` and 24 random hex digits.
  patterns.set('marker', { name: 'random secret marker', pattern: /[A-Za-z][\w-]*-[0-9a-f]{24}(?![0-9a-f])/ });
  patterns.set('generated', { name: 'generated private or organization key', pattern: /\b(?:sk|ok)_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/ });
  return patterns;
}

function mask(value) {
  return value.length <= 8 ? `${value.slice(0, 2)}…` : `${value.slice(0, 6)}…(${value.length} chars)`;
}

const logs = process.argv.slice(2);
if (logs.length === 0) {
  process.stderr.write('usage: node test/support/secrets-sweep.mjs <log file> [<log file> …]\n');
  process.exit(2);
}
const patterns = secretPatterns();
let hits = 0;
for (const log of logs) {
  const lines = readFileSync(log, 'utf8').split('\n');
  lines.forEach((line, index) => {
    const found = [...patterns.values()].filter(({ pattern }) => pattern.test(line)).map(({ name }) => name);
    if (found.length === 0) return;
    hits++;
    process.stdout.write(`${log}:${index + 1}: ${found.join('; ')}\n`);
  });
}
process.stdout.write(`Secrets sweep: ${patterns.size} patterns from the suites' sources, ${logs.length} log file(s), ${hits} hit(s)\n`);
process.exit(hits === 0 ? 0 : 1);
