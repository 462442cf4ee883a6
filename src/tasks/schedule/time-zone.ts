/**
 * Spellings already looked up, to their canonical names. Bounded: a stored spelling of a row
 * written before names were canonicalised, or a caller's new spelling, may each arrive once, and
 * Intl accepts about 2^30 letter cases of a long zone name.
 */
const canonicalBySpelling = new Map<string, string>();
const MAX_REMEMBERED_SPELLINGS = 2_000;

/** Every IANA zone name and alias is letters, digits, `_`, `-`, `+` and `/`, starting with a letter: what the document states of one. */
export const TIME_ZONE_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_+/-]*$';

/**
 * The canonical name of an IANA time zone (`europe/berlin` → `Europe/Berlin`, `US/Pacific` →
 * `America/Los_Angeles`, `Etc/UTC` → `UTC`), as the runtime's ICU data names it, or undefined when
 * `name` is no zone: an offset such as `+02:00` is not a zone name either. Everything keyed by a
 * zone name downstream (luxon keeps ~50 KB per name for ever) sees only these few hundred names.
 */
export function canonicalTimeZone(name: string): string | undefined {
  const known = canonicalBySpelling.get(name);
  if (known !== undefined) return known;
  if (!/^[A-Za-z]/.test(name)) return undefined;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  if (canonicalBySpelling.size >= MAX_REMEMBERED_SPELLINGS) canonicalBySpelling.clear();
  canonicalBySpelling.set(name, canonical);
  return canonical;
}

/**
 * Names ICU knows that the IANA database has not: Java's three-letter compatibility ids, each
 * mapped to a zone its letters do not stand for (`BST` to Asia/Dhaka, `IST` to Asia/Calcutta), and
 * names IANA removed (with the SystemV zones, below). Lower case.
 */
const ICU_ONLY_NAMES = new Set(
  [
    ...['ACT', 'AET', 'AGT', 'ART', 'AST', 'BET', 'BST', 'CAT', 'CNT', 'CST', 'CTT', 'EAT', 'ECT'],
    ...['IET', 'IST', 'JST', 'MIT', 'NET', 'NST', 'PLT', 'PNT', 'PRT', 'PST', 'SST', 'VST'],
    'US/Pacific-New',
    'Canada/East-Saskatchewan',
  ].map((name) => name.toLowerCase()),
);

/** Whether a caller's zone name is one of the IANA database (in any letter case), as a schedule's must be. */
export function isIanaTimeZone(name: string): boolean {
  const lowerCase = name.toLowerCase();
  return !ICU_ONLY_NAMES.has(lowerCase) && !lowerCase.startsWith('systemv/') && canonicalTimeZone(name) !== undefined;
}

/** The canonical name of a zone already validated (a stored one, or one a DTO accepted). */
export function canonicalTimeZoneOf(validName: string): string {
  const canonical = canonicalTimeZone(validName);
  if (canonical === undefined) throw new Error(`Not a time zone: ${JSON.stringify(validName)}`);
  return canonical;
}
