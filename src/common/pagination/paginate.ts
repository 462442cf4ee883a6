import type { FindOptionsOrder, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';
import { ValidationError } from '../errors.js';
import { decodeCursor, encodeCursor, type ListPosition } from './cursor.js';
import { PAGE_LIMITS, type PageQueryDto } from './page-query.dto.js';

export interface Page<T> {
  items: T[];
  /** The cursor of the page after this one, or null when this is the last. */
  nextCursor: string | null;
}

type Listed = ObjectLiteral & ListPosition;

/**
 * One page of the rows matching `where`, in the order of every list (createdAt, then id). Keyset
 * pagination: the cursor is the last row's position, so rows created meanwhile never shift a page
 * and no row is returned twice; `(created_at, id) > (…)` is answered from the (…, created_at, id)
 * index behind each list.
 */
export async function paginate<T extends Listed>(repository: Repository<T>, where: FindOptionsWhere<T>, query: PageQueryDto): Promise<Page<T>> {
  const limit = query.limit ?? PAGE_LIMITS.defaultLimit;
  const builder = repository
    .createQueryBuilder('listed')
    .setFindOptions({ where, order: { createdAt: 'ASC', id: 'ASC' } as FindOptionsOrder<T> })
    .limit(limit + 1);
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    if (after === undefined) throw new ValidationError('cursor is not a cursor from a Link header of this list');
    builder.andWhere('(listed.createdAt, listed.id) > (:afterCreatedAt, :afterId)', { afterCreatedAt: after.createdAt, afterId: after.id });
  }
  const rows = await builder.getMany();
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
}
