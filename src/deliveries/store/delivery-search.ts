import type { EntityManager } from 'typeorm';
import { containsPattern } from '../../db/like-pattern';

/**
 * The workspace's URLs and event names that a `searchTerm` matches, read before the log's query
 * so that the search becomes exact values the B-tree indexes answer (issue 38). A workspace has a
 * few event names and a few URLs (its webhooks', now and before), each listed by a skip scan of the
 * index that leads with it (one probe per distinct value) and matched with the same ILIKE as
 * before; the rows are then found by `url IN (…) OR event IN (…)`. `urls` is null when the
 * workspace has more than MAX_URLS distinct URLs: the URL half then stays an ILIKE.
 */
export interface SearchMatches {
  urls: string[] | null;
  events: string[];
}

const MAX_URLS = 200;

/** Lists the distinct values of `column` in the workspace, at most `limit` (+1 to tell "more"). */
const distinctValues = (column: 'url' | 'event', limit: number) => `
  WITH RECURSIVE found(value, n) AS (
    (SELECT ${column}, 1 FROM deliveries WHERE workspace_id = $1 ORDER BY ${column} LIMIT 1)
    UNION ALL
    SELECT (SELECT d.${column} FROM deliveries d WHERE d.workspace_id = $1 AND d.${column} > found.value
             ORDER BY d.${column} LIMIT 1), n + 1
      FROM found WHERE found.value IS NOT NULL AND n <= ${limit}
  )
  SELECT value, value ILIKE $2 ESCAPE '\\' AS matches FROM found WHERE value IS NOT NULL`;

export async function searchMatches(
  manager: EntityManager,
  workspaceId: string,
  searchTerm: string,
): Promise<SearchMatches> {
  const term = containsPattern(searchTerm);
  type Found = { value: string; matches: boolean }[];
  const urls = (await manager.query(distinctValues('url', MAX_URLS), [workspaceId, term])) as Found;
  const events = (await manager.query(distinctValues('event', 10_000), [workspaceId, term])) as Found;
  const matching = (found: Found) => found.filter((row) => row.matches).map((row) => row.value);
  return { urls: urls.length > MAX_URLS ? null : matching(urls), events: matching(events) };
}
