import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where each suite appends the responses it checked against openapi.json; the teardown sums them. */
export default function setUp() {
  process.env.OPENAPI_RESPONSE_LOG = join(mkdtempSync(join(tmpdir(), 'amc-openapi-')), 'checked.jsonl');
}
