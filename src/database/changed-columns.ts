import { isDeepStrictEqual } from 'node:util';

/**
 * The entries of `candidate` whose values differ from the stored row's (documents compared by
 * content, whatever the order of their keys). An update that changes nothing then writes
 * nothing, and `updatedAt` stays.
 */
export function changedColumns<T extends object>(stored: T, candidate: Partial<T>): Partial<T> {
  return Object.fromEntries(
    Object.entries(candidate).filter(([column, value]) => value !== undefined && !isDeepStrictEqual(value, stored[column as keyof T])),
  ) as Partial<T>;
}
