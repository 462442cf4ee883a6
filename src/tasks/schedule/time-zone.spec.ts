import { describe, expect, it } from '@jest/globals';
import { canonicalTimeZone } from './time-zone.js';

describe('canonicalTimeZone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/BERLIN', 'Europe/Berlin'],
    ['America/Argentina/ComodRivadavia', 'America/Catamarca'],
    ['aMeRiCa/aRgEnTiNa/cOmOdRiVaDaViA', 'America/Catamarca'],
    ['US/Pacific', 'America/Los_Angeles'],
    ['Etc/UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Etc/GMT+12', 'Etc/GMT+12'],
  ])('names %s as %s', (spelling, canonical) => expect(canonicalTimeZone(spelling)).toBe(canonical));

  it.each(['+02:00', '-05', 'Mars/Olympus', '', 'Europe/Berlin ', '/Europe/Berlin'])('knows no zone %j', (name) =>
    expect(canonicalTimeZone(name)).toBeUndefined(),
  );

  it('maps every spelling of a zone onto one name: what keys a cache by zone stays bounded by the zones there are', () => {
    const zone = 'America/Argentina/ComodRivadavia';
    const spellings = Array.from({ length: 3000 }, (_, n) =>
      [...zone].map((letter, i) => ((n >> (i % 20)) & 1 ? letter.toUpperCase() : letter.toLowerCase())).join(''),
    );
    expect(new Set(spellings.map(canonicalTimeZone))).toEqual(new Set(['America/Catamarca']));
  });
});
