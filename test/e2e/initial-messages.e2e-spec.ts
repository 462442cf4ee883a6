import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type Api, bodyOf, errorOf, type Schemas } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { ISO_UTC, UNAUTHORIZED, UUID } from '../support/expected.js';
import { createAssistant, createPublicKey, secondWorkspaceApi } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID, UNKNOWN_KEY } from '../support/unknown.js';

const INITIAL_MESSAGES = '/api/cloud/assistants/{assistantId}/initial-messages';
const messagesPath = (assistantId: string) => `/api/cloud/assistants/${assistantId}/initial-messages`;

const NOT_FOUND = { error: 'Not Found', message: 'Assistant not found' };

type Item = Schemas['InitialMessageInput'];

/** What the service answers for each message sent: every field, the sent role and content. */
const stored = (items: Item[]) =>
  items.map(({ role, content }) => ({
    id: expect.stringMatching(UUID),
    role,
    content,
    createdAt: expect.stringMatching(ISO_UTC),
    updatedAt: expect.stringMatching(ISO_UTC),
  }));

const assistantSays = (...contents: string[]): Item[] => contents.map((content) => ({ role: 'ASSISTANT', content }));

const at = (assistantId: string) => ({ params: { path: { assistantId } } });

describe('Initial messages', () => {
  let t: TestApp;
  let api: Api;
  let assistantId: string;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    assistantId = (await createAssistant(api)).id;
  });

  const put = (id: string, initialMessages: Item[], client = api) => client.PUT(INITIAL_MESSAGES, { ...at(id), body: { initialMessages } });

  const getMessages = async (id = assistantId, client = api) => bodyOf(await client.GET(INITIAL_MESSAGES, at(id)), 200).initialMessages;

  const replace = async (items: Item[], id = assistantId, client = api) => bodyOf(await put(id, items, client), 200).initialMessages;

  describe('GET /assistants/{assistantId}/initial-messages', () => {
    it('answers an empty list for an assistant that has none', async () => {
      const answer = await api.GET(INITIAL_MESSAGES, at(assistantId));
      expect(answer.response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(bodyOf(answer, 200)).toEqual({ initialMessages: [] });
    });

    it('returns only that assistant’s messages', async () => {
      const other = await createAssistant(api, { name: 'Other' });
      const mine = await replace(assistantSays('Mine'));
      const theirs = await replace(assistantSays('Theirs', 'Also theirs'), other.id);
      expect(await getMessages()).toEqual(mine);
      expect(await getMessages(other.id)).toEqual(theirs);
    });
  });

  describe('PUT /assistants/{assistantId}/initial-messages', () => {
    it('stores the list and returns it with every field, in the order sent; GET returns the same', async () => {
      const items = assistantSays('Hello!', 'I can track orders.', 'Ask me anything.');
      const answer = await put(assistantId, items);
      const replaced = bodyOf(answer, 200);

      expect(answer.response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(replaced).toEqual({ initialMessages: stored(items) });
      const ids = replaced.initialMessages.map((message) => message.id);
      expect(new Set(ids).size).toBe(3);
      expect(await getMessages()).toEqual(replaced.initialMessages);
      expect(await countRows(t, 'initial_messages')).toBe(3);
    });

    it('keeps the order sent rather than sorting, for up to 100 messages', async () => {
      const items = assistantSays(...Array.from({ length: 100 }, (_, n) => `${99 - n} ${n % 2 === 0 ? 'b' : 'a'}`));
      expect(await replace(items)).toEqual(stored(items));
      expect((await getMessages()).map(({ content }) => content)).toEqual(items.map(({ content }) => content));
    });

    it('replaces the whole list on a second PUT: the old messages are gone', async () => {
      const first = await replace(assistantSays('one', 'two', 'three'));
      const second = await replace(assistantSays('four', 'five'));

      expect(second).toEqual(stored(assistantSays('four', 'five')));
      const firstIds = first.map(({ id }) => id);
      expect(second.map(({ id }) => id).filter((id) => firstIds.includes(id))).toEqual([]);
      expect(await getMessages()).toEqual(second);
      expect(await countRows(t, 'initial_messages')).toBe(2);
    });

    it('deletes every message when sent []', async () => {
      await replace(assistantSays('one', 'two'));
      expect(bodyOf(await put(assistantId, []), 200)).toEqual({ initialMessages: [] });
      expect(await getMessages()).toEqual([]);
      expect(await countRows(t, 'initial_messages')).toBe(0);
    });

    it('leaves the other assistants’ messages alone', async () => {
      const other = await createAssistant(api, { name: 'Other' });
      const theirs = await replace(assistantSays('Theirs'), other.id);
      await replace(assistantSays('Mine'));
      await replace([]);
      expect(await getMessages(other.id)).toEqual(theirs);
    });

    it('accepts content of exactly 32000 characters and stores it whole', async () => {
      const content = 'x'.repeat(31_999) + 'y';
      expect(await replace(assistantSays(content))).toEqual(stored(assistantSays(content)));
      expect((await getMessages())[0].content).toBe(content);
    });

    it('stores and returns Unicode content exactly', async () => {
      const contents = [
        'Hi 👋🏽 👩‍👩‍👧‍👦 🇯🇵',
        'مرحبا، كيف يمكنني مساعدتك؟',
        'שלום! abc עברית 123',
        'e\u0301 a\u030A n\u0303 \u1100\u1161\u11A8',
        '\u202Eright-to-left override\u202C zero\u200Bwidth',
        '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 "quotes" \\ back\\slash\n\ttab',
      ];
      const items = assistantSays(...contents);
      expect(await replace(items)).toEqual(stored(items));
      expect((await getMessages()).map(({ content }) => content)).toEqual(contents);
    });

    describe('validation', () => {
      const before = assistantSays('kept one', 'kept two');
      const ok = { role: 'ASSISTANT', content: 'fine' } as const;

      it.each<[string, unknown, string]>([
        ['initialMessages missing', {}, 'initialMessages must be an array'],
        ['initialMessages null', { initialMessages: null }, 'initialMessages must be an array'],
        ['initialMessages an object', { initialMessages: { role: 'ASSISTANT', content: 'x' } }, 'initialMessages must be an array'],
        ['initialMessages a string', { initialMessages: 'hello' }, 'initialMessages must be an array'],
        ['101 messages', { initialMessages: Array.from({ length: 101 }, () => ok) }, 'initialMessages must contain no more than 100 elements'],
        ['an item that is a string', { initialMessages: ['hello'] }, 'initialMessages[0] must be an object'],
        ['an item that is null', { initialMessages: [ok, null] }, 'initialMessages[1] must be an object'],
        ['role USER', { initialMessages: [{ role: 'USER', content: 'x' }] }, 'initialMessages[0].role must be one of the following values: ASSISTANT'],
        [
          'role in lowercase',
          { initialMessages: [{ role: 'assistant', content: 'x' }] },
          'initialMessages[0].role must be one of the following values: ASSISTANT',
        ],
        ['role missing', { initialMessages: [{ content: 'x' }] }, 'initialMessages[0].role must be one of the following values: ASSISTANT'],
        ['content missing', { initialMessages: [{ role: 'ASSISTANT' }] }, 'initialMessages[0].content must be a string'],
        ['content a number', { initialMessages: [{ role: 'ASSISTANT', content: 7 }] }, 'initialMessages[0].content must be a string'],
        [
          'empty content',
          { initialMessages: [ok, { role: 'ASSISTANT', content: '' }] },
          'initialMessages[1].content must be longer than or equal to 1 characters',
        ],
        [
          'content of 32001 characters',
          { initialMessages: [{ role: 'ASSISTANT', content: 'x'.repeat(32_001) }] },
          'initialMessages[0].content must be shorter than or equal to 32000 characters',
        ],
        ['content with NUL', { initialMessages: [{ role: 'ASSISTANT', content: 'a\u0000b' }] }, 'initialMessages[0].content must not contain NUL characters'],
        ['an unknown item field', { initialMessages: [{ role: 'ASSISTANT', content: 'x', extra: 1 }] }, 'property initialMessages[0].extra should not exist'],
        ['an item id', { initialMessages: [{ id: UNKNOWN_ID, role: 'ASSISTANT', content: 'x' }] }, 'property initialMessages[0].id should not exist'],
        ['an unknown top-level field', { initialMessages: [ok], assistantId: UNKNOWN_ID }, 'property assistantId should not exist'],
        ['a bare array', [ok], 'The request body must be a JSON object, not an array'],
      ])('refuses %s (400) and leaves the stored list unchanged', async (_case, body, message) => {
        const kept = await replace(before);
        const response = await t
          .as(PRIVATE_KEY)
          .put(messagesPath(assistantId))
          .send(body as object)
          .expect(400);
        expect(response.body).toEqual({ error: 'Bad Request', message });
        expect(await getMessages()).toEqual(kept);
      });

      it('refuses the whole list when only its last item is bad', async () => {
        const kept = await replace(before);
        const items = [...assistantSays('a', 'b', 'c', 'd'), { role: 'ASSISTANT', content: 'x'.repeat(32_001) } as const];
        expect(errorOf(await put(assistantId, items), 400)).toEqual({
          error: 'Bad Request',
          message: 'initialMessages[4].content must be shorter than or equal to 32000 characters',
        });
        expect(await getMessages()).toEqual(kept);
        expect(await countRows(t, 'initial_messages')).toBe(2);
      });

      it('names every bad item in one answer', async () => {
        const kept = await replace(before);
        const items = [ok, { role: 'USER', content: 'x' }, ok, { role: 'ASSISTANT', content: '' }];
        const response = await t.as(PRIVATE_KEY).put(messagesPath(assistantId)).send({ initialMessages: items }).expect(400);
        expect(response.body).toEqual({
          error: 'Bad Request',
          message:
            'initialMessages[1].role must be one of the following values: ASSISTANT; initialMessages[3].content must be longer than or equal to 1 characters',
        });
        expect(await getMessages()).toEqual(kept);
      });

      it('refuses a non-JSON body (415) and malformed JSON (400), leaving the list unchanged', async () => {
        const kept = await replace(before);
        const raw = t.as(PRIVATE_KEY);
        const form = await raw.put(messagesPath(assistantId)).type('form').send('initialMessages=x').expect(415);
        expect(form.body).toEqual({ error: 'Unsupported Media Type', message: expect.stringContaining('application/json') });
        const text = await raw
          .put(messagesPath(assistantId))
          .set('Content-Type', 'text/plain')
          .send(JSON.stringify({ initialMessages: [] }))
          .expect(415);
        expect(text.body).toEqual({ error: 'Unsupported Media Type', message: expect.stringContaining('application/json') });
        const malformed = await raw.put(messagesPath(assistantId)).set('Content-Type', 'application/json').send('{"initialMessages": [').expect(400);
        expect(malformed.body).toEqual({ error: 'Bad Request', message: expect.any(String) });
        expect(await getMessages()).toEqual(kept);
      });
    });

    it('ends with exactly one whole list after 20 concurrent replacements, never a mix', async () => {
      await replace(assistantSays('before'));
      const lists = Array.from({ length: 20 }, (_, i) => assistantSays(...Array.from({ length: i + 1 }, (_, n) => `${i}-${n}`)));

      const answers = await Promise.all(lists.map((items) => put(assistantId, items)));

      answers.forEach((answer, i) => {
        expect(bodyOf(answer, 200)).toEqual({ initialMessages: stored(lists[i]) });
      });
      const final = await getMessages();
      expect(final.length).toBeGreaterThan(0);
      const winner = Number(final[0]?.content.split('-')[0]);
      expect(final.map(({ content }) => content)).toEqual(lists[winner].map(({ content }) => content));
      expect(final).toEqual(answers[winner].data!.initialMessages);
      expect(await countRows(t, 'initial_messages')).toBe(winner + 1);
    });

    it.each([
      ['an unknown id', UNKNOWN_ID],
      ['a non-UUID id', 'not-a-uuid'],
    ])('answers 404 for %s on GET and PUT, and writes nothing', async (_case, id) => {
      expect(errorOf(await api.GET(INITIAL_MESSAGES, at(id)), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await put(id, assistantSays('x')), 404)).toEqual(NOT_FOUND);
      expect(await countRows(t, 'initial_messages')).toBe(0);
    });

    it('answers 404 for an assistant that was deleted', async () => {
      await replace(assistantSays('x'));
      bodyOf(await api.DELETE('/api/cloud/assistants/{assistantId}', at(assistantId)), 200);
      expect(errorOf(await api.GET(INITIAL_MESSAGES, at(assistantId)), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await put(assistantId, assistantSays('y')), 404)).toEqual(NOT_FOUND);
      expect(await countRows(t, 'initial_messages')).toBe(0);
    });

    it('answers 404 for an assistant of another workspace, on GET and PUT, and writes nothing', async () => {
      const other = await secondWorkspaceApi(t);
      const theirs = await createAssistant(other, { name: 'Theirs' });
      const theirMessages = await replace(assistantSays('Their greeting'), theirs.id, other);
      const mine = await replace(assistantSays('My greeting'));

      expect(errorOf(await api.GET(INITIAL_MESSAGES, at(theirs.id)), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await put(theirs.id, assistantSays('Hijacked')), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await put(theirs.id, []), 404)).toEqual(NOT_FOUND);
      expect(errorOf(await put(assistantId, [], other), 404)).toEqual(NOT_FOUND);

      expect(await getMessages(theirs.id, other)).toEqual(theirMessages);
      expect(await getMessages()).toEqual(mine);
    });
  });

  describe('authentication and authorization', () => {
    it('answers 401 on GET and PUT without a key or with an unknown one, and writes nothing', async () => {
      const kept = await replace(assistantSays('kept'));
      const basicScheme = { headers: { Authorization: `Basic ${PRIVATE_KEY}` } };
      for (const [client, init] of [
        [t.api(null), {}],
        [t.api(UNKNOWN_KEY), {}],
        [t.api(null), basicScheme],
      ] as const) {
        expect(errorOf(await client.GET(INITIAL_MESSAGES, { ...init, ...at(assistantId) }), 401)).toEqual(UNAUTHORIZED);
        expect(errorOf(await client.PUT(INITIAL_MESSAGES, { ...init, ...at(assistantId), body: { initialMessages: [] } }), 401)).toEqual(UNAUTHORIZED);
      }
      expect(await getMessages()).toEqual(kept);
    });

    it('answers 403 on GET and PUT to a PUBLIC or ORGANIZATION key, and writes nothing', async () => {
      const kept = await replace(assistantSays('kept'));
      const { value: publicKey } = await createPublicKey(api);
      for (const [key, type] of [
        [publicKey!, 'PUBLIC'],
        [ORGANIZATION_KEY, 'ORGANIZATION'],
      ]) {
        const forbidden = { error: 'Forbidden', message: `This operation does not accept ${type} API keys; it accepts PRIVATE keys` };
        expect(errorOf(await t.api(key).GET(INITIAL_MESSAGES, at(assistantId)), 403)).toEqual(forbidden);
        expect(errorOf(await put(assistantId, [], t.api(key)), 403)).toEqual(forbidden);
      }
      expect(await getMessages()).toEqual(kept);
    });
  });
});
