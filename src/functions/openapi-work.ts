/**
 * Bounds on the work of validating an OpenAPI document, checked before the validator sees it.
 * The validator dereferences every `$ref` and then walks the result, where each `$ref` is a full
 * copy of what it names: 22 schemas each naming the next twice are 3 KB of text and 2^22 nodes to
 * walk. A valid document of the largest size accepted has about 50,000 nodes.
 */
export const OPENAPI_LIMITS = { maxDepth: 64, maxRefs: 5_000, maxRefHops: 32, maxExpandedNodes: 100_000 } as const;

class TooMuchWork extends Error {}

/**
 * The document `text` holds, or what keeps it from being an OpenAPI 3.x document worth validating:
 * not JSON, not an object, another version, more work than the limits allow.
 */
export function openApiDocumentOf(text: string): { document: object } | { problem: string } {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { problem: `is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return { problem: 'must be a JSON object' };
  const version = (document as { openapi?: unknown }).openapi;
  if (typeof version !== 'string' || !/^3\.\d+\.\d+/.test(version)) {
    return { problem: `must be an OpenAPI 3.x document: its "openapi" field is ${version === undefined ? 'missing' : JSON.stringify(version)}` };
  }
  const tooMuchWork = openApiWorkProblem(document);
  return tooMuchWork === undefined ? { document } : { problem: tooMuchWork };
}

/** What makes validating `document` more work than the limits allow, or undefined. */
export function openApiWorkProblem(document: object): string | undefined {
  const { maxDepth, maxRefs } = OPENAPI_LIMITS;
  const { depth, refs } = shapeOf(document, maxDepth);
  if (depth > maxDepth) return `nests objects and arrays more than ${maxDepth} levels deep`;
  if (refs > maxRefs) return `has more than ${maxRefs} $refs`;
  try {
    new Expansion(document).size(document, 0);
  } catch (error) {
    if (error instanceof TooMuchWork) return error.message;
    throw error;
  }
  return undefined;
}

/** How deep the document nests (counted up to `stopAt` and one more) and how many `$ref`s it holds; with a stack of its own, as it may be deep. */
function shapeOf(root: object, stopAt: number): { depth: number; refs: number } {
  let [deepest, refCount] = [0, 0];
  const pending: [unknown, number][] = [[root, 1]];
  while (pending.length > 0) {
    const [value, level] = pending.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    deepest = Math.max(deepest, level);
    if (deepest > stopAt) break;
    if (typeof (value as { $ref?: unknown }).$ref === 'string') refCount += 1;
    for (const item of Object.values(value)) pending.push([item, level + 1]);
  }
  return { depth: deepest, refs: refCount };
}

/** Counts the nodes of the document with every internal `$ref` replaced by what it names, as the validator walks it. */
class Expansion {
  private readonly sizeOfTarget = new Map<string, number>();
  private readonly following = new Set<string>();
  private total = 0;

  constructor(private readonly document: object) {}

  /** Recursive, but never deeper than maxDepth levels times maxRefHops, both checked first. */
  size(value: unknown, hops: number): number {
    if (typeof value !== 'object' || value === null) return this.count(1);
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) return this.sizeOfRef(ref, hops);
    let size = this.count(1);
    for (const item of Object.values(value)) size += this.size(item, hops);
    return size;
  }

  /** A circular `$ref` stays a reference for the validator: it counts once. */
  private sizeOfRef(ref: string, hops: number): number {
    const known = this.sizeOfTarget.get(ref);
    if (known !== undefined) return this.count(known);
    if (this.following.has(ref)) return this.count(1);
    if (hops >= OPENAPI_LIMITS.maxRefHops) throw new TooMuchWork(`has $refs that lead through more than ${OPENAPI_LIMITS.maxRefHops} others`);
    const target = pointedAt(this.document, ref);
    if (target === undefined) return this.count(1);
    this.following.add(ref);
    const size = this.size(target, hops + 1);
    this.following.delete(ref);
    this.sizeOfTarget.set(ref, size);
    return size;
  }

  private count(nodes: number): number {
    this.total += nodes;
    if (this.total > OPENAPI_LIMITS.maxExpandedNodes) {
      throw new TooMuchWork(`expands to more than ${OPENAPI_LIMITS.maxExpandedNodes} nodes (each $ref counts as a copy of what it names)`);
    }
    return nodes;
  }
}

/** What a JSON pointer in a URI fragment (`#/components/schemas/Order`) names in the document, if anything. */
function pointedAt(document: object, ref: string): unknown {
  let tokens: string[];
  try {
    tokens = decodeURIComponent(ref.slice(1)).split('/').slice(1);
  } catch {
    return undefined;
  }
  let at: unknown = document;
  for (const token of tokens) {
    if (typeof at !== 'object' || at === null) return undefined;
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * This file as script text, for the validator's worker thread (openapi-validator.ts): parsing and
 * measuring a document of 500 KB takes up to 190 ms, which must not hold the event loop either.
 * It names nothing outside the file, so each declaration's own text is the whole of it.
 */
export const OPENAPI_WORK_SOURCE = [
  `const OPENAPI_LIMITS = ${JSON.stringify(OPENAPI_LIMITS)};`,
  ...[TooMuchWork, openApiDocumentOf, openApiWorkProblem, shapeOf, Expansion, pointedAt].map(String),
].join('\n');
