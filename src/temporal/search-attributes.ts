import { temporal } from '@temporalio/proto';
import { status as grpcStatus } from '@grpc/grpc-js';
import { SEARCH_ATTRIBUTE_KEYS } from '../shared/temporal/search-attributes';
import type { TemporalConnection } from './client';

const { IndexedValueType } = temporal.api.enums.v1;
/** The server's types of the search attribute types the workflows use. */
const INDEXED_TYPES: Partial<Record<(typeof SEARCH_ATTRIBUTE_KEYS)[number]['type'], number>> = {
  KEYWORD: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  KEYWORD_LIST: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

/**
 * Registers the custom search attributes that are missing on the namespace and returns their
 * names. Works the same on the dev server (a fresh or an existing SQLite file), a production
 * cluster and the time-skipping test server (which cannot list them, only add them), so no
 * start-up flag has to be remembered.
 */
export async function ensureSearchAttributes(
  connection: TemporalConnection,
  namespace: string,
): Promise<string[]> {
  const known = await listCustomAttributes(connection, namespace);
  const missing = SEARCH_ATTRIBUTE_KEYS.filter((key) => !known.has(key.name));
  if (missing.length === 0) return [];
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((key) => [key.name, INDEXED_TYPES[key.type]!])),
    });
  } catch (error) {
    if ((error as { code?: number }).code !== grpcStatus.ALREADY_EXISTS) throw error;
  }
  return missing.map((key) => key.name);
}

async function listCustomAttributes(connection: TemporalConnection, namespace: string): Promise<Set<string>> {
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    return new Set(Object.keys(existing.customAttributes ?? {}));
  } catch (error) {
    if ((error as { code?: number }).code === grpcStatus.UNIMPLEMENTED) return new Set();
    throw error;
  }
}
