import { temporal } from '@temporalio/proto';
import { status as grpcStatus } from '@grpc/grpc-js';
import { SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';
import type { TemporalConnection } from './client';

const KEYWORD = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;

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
      searchAttributes: Object.fromEntries(missing.map((key) => [key.name, KEYWORD])),
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
