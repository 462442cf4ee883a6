import { DataSource } from 'typeorm';
import { bearer, PRIVATE_KEY, type TestApp } from './test-app.js';

export const ASSISTANTS = '/api/cloud/assistants';

export const UNAUTHORIZED = { error: 'Unauthorized', message: 'The API key is invalid or missing' };

/** A well-formed key the service never made. */
export const UNKNOWN_KEY = 'sk_unknown0key0TOcI5D6u9G1eroPinYRkNErnwYwUtvB9';

/** A UUID that names nothing. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export interface AssistantBody {
  id: string;
  name: string;
  provider: string;
  model: string | null;
  instructions: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Creates an assistant through the API (OPENAI, which offers every tool type, unless told otherwise). */
export async function createAssistant(
  http: TestApp['http'],
  body: Record<string, unknown> = {},
  key = PRIVATE_KEY,
): Promise<AssistantBody> {
  const response = await http.post(ASSISTANTS).set(bearer(key)).send({ name: 'Support', provider: 'OPENAI', ...body }).expect(201);
  return response.body.assistant as AssistantBody;
}

/** Rows in a table, read straight from the database: for asserting that a refused request changed nothing. */
export async function countRows(t: TestApp, table: string): Promise<number> {
  const [{ count }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS count FROM "${table}"`);
  return count as number;
}
