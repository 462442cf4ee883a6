import { describe, expect, it } from '@jest/globals';
import { HandlerType, type FunctionHandler } from './function-handler.js';
import { handlerRecord, mergeHandler } from './handler.mapper.js';

const stored: FunctionHandler = {
  type: HandlerType.REQUEST,
  requestHandler: { url: 'https://api.example.com/orders', method: 'POST', headers: '{"X-Key":"a"}', body: '{"id":1}' },
};

describe('handlerRecord', () => {
  it('fills headers and body with an empty JSON object when they are left out', () => {
    const record = handlerRecord({ type: HandlerType.REQUEST, requestHandler: { url: 'https://x.example/y', method: 'GET' } });
    expect(record).toEqual({ type: 'REQUEST', requestHandler: { url: 'https://x.example/y', method: 'GET', headers: '{}', body: '{}' } });
  });

  it('keeps the strings it is given exactly', () => {
    expect(handlerRecord(stored)).toEqual(stored);
  });
});

describe('mergeHandler', () => {
  it('changes only the fields sent', () => {
    expect(mergeHandler(stored, { requestHandler: { method: 'PUT' } })).toEqual({
      type: 'REQUEST',
      requestHandler: { ...stored.requestHandler, method: 'PUT' },
    });
  });

  it('keeps everything when the handler sent is empty', () => {
    expect(mergeHandler(stored, {})).toEqual(stored);
  });

  it('replaces every field when all are sent', () => {
    const requestHandler = { url: 'https://other.example/', method: 'DELETE' as const, headers: '{}', body: 'null' };
    expect(mergeHandler(stored, { type: HandlerType.REQUEST, requestHandler })).toEqual({ type: 'REQUEST', requestHandler });
  });
});
