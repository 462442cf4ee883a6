import { describe, expect, it } from '@jest/globals';
import { changedColumns } from './changed-columns.js';

describe('changedColumns', () => {
  const stored = { name: 'a', rules: [{ frequency: 'daily' }], model: null as string | null };

  it('keeps only the values that differ, documents compared by content', () => {
    expect(changedColumns(stored, { name: 'b', rules: [{ frequency: 'daily' }], model: null })).toEqual({ name: 'b' });
  });

  it('ignores what was not sent, and sees a cleared value as a change', () => {
    expect(changedColumns<typeof stored>({ ...stored, model: 'x' }, { name: undefined, model: null })).toEqual({ model: null });
  });

  it('compares documents whatever the order of their keys', () => {
    const handler = { type: 'REQUEST', requestHandler: { url: 'https://x.example', method: 'GET' } };
    const reordered = { requestHandler: { method: 'GET', url: 'https://x.example' }, type: 'REQUEST' };
    expect(changedColumns({ handler }, { handler: reordered })).toEqual({});
  });

  it('is empty when nothing would change', () => {
    expect(changedColumns(stored, {})).toEqual({});
  });
});
