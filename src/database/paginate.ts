import type { ObjectLiteral } from 'typeorm';
import type { Equalities, RowQueries } from './row-queries.js';
import { ValidationError } from '../errors/domain-errors.js';
import { decodeCursor, encodeCursor, type ListPosition } from './page-cursor.js';
import { PAGE_LIMITS, type PageQueryDto } from './page-query.dto.js';

export interface Page<T> {
  items: T[];
  /** The cursor of the page after this one, or null when this is the last. */
  nextCursor: string | null;
}

type Listed = ObjectLiteral & ListPosition;

/**
 * One page of the rows matching `where`, in the order of every list (createdAt, then id): `limit`
 * rows, or fewer when they pass the byte budget (PAGE_LIMITS.byteBudget), so that no page is
 * large enough to stall the process while it is serialised; the Link continues after it. Keyset
 * pagination: the cursor is the last row's position, so rows created meanwhile never shift a page
 * and no row is returned twice; `(created_at, id) > (…)` is answered from the (…, created_at, id)
 * index behind each list.
 */
export async function paginate<T extends Listed>(rows: RowQueries<T>, where: Equalities<T>, query: PageQueryDto): Promise<Page<T>> {
  const limit = query.limit ?? PAGE_LIMITS.defaultLimit;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (after === undefined && query.cursor !== undefined) throw new ValidationError('cursor is not a cursor from a Link header of this list');
  const { rows: items, more } = await rows.pageInListOrder(where, limit, PAGE_LIMITS.byteBudget, after);
  return { items, nextCursor: more ? encodeCursor(items[items.length - 1]) : null };
}
