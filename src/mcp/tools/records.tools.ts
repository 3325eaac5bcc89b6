import type { DataSource } from 'typeorm';
import { decodePaging, encodePage } from '../../http/paging';
import { z } from 'zod';
import { loadModel, findReadableType, visibleModel } from '../../record-model/model.service';
import { recordAccessOf } from '../../record-model/record-access';
import { recordFilterSchema } from '../../records/record-query';
import { recordWriteBody } from '../../records/records.schemas';
import type { RecordsService } from '../../records/records.service';
import { escapeMarkdown, untrusted } from '../markdown';
import { defineTool, idempotencyKeyField, UNTRUSTED_META_KEY, type McpTool } from '../mcp-tool';
import { recordToMarkdown, recordTitle } from '../record-markdown';
import type { ApiKeyActor } from '../../api-keys/api-key-auth';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const typeRef = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('Record type: its id (from get_record_model), name, or built-in key such as "deal".');
const recordId = z.uuid().describe('The record id.');

/** Record content is written by people: every result says so, in `_meta` and in a visible fence. */
const untrustedResult = (markdown: string, structuredContent?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: untrusted(markdown) }],
  ...(structuredContent ? { structuredContent } : {}),
  _meta: { [UNTRUSTED_META_KEY]: true },
});

const mcpCause = (actor: ApiKeyActor) => ({ kind: 'mcp' as const, apiKeyId: actor.apiKeyId });

/** get_record_model, search_records, read_record, create_record, update_record. */
export function recordTools(deps: { dataSource: DataSource; records: RecordsService }): McpTool[] {
  const { dataSource, records } = deps;

  const typeOf = async (actor: ApiKeyActor, reference: string) => {
    const model = await loadModel(dataSource.manager, actor.workspace.id);
    return findReadableType(model, recordAccessOf(actor.role, model), reference);
  };

  return [
    defineTool({
      name: 'get_record_model',
      title: 'Get the record model',
      description:
        'Returns the record types you can read with their fields, stable type and field ids, field kinds, and the ' +
        'current schema revision (needed as expectedSchemaRevision for record subscriptions in manage_webhooks).',
      input: z.strictObject({ type: typeRef.optional() }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      run: async ({ type }, actor) => {
        const loaded = await loadModel(dataSource.manager, actor.workspace.id);
        const access = recordAccessOf(actor.role, loaded);
        const model = visibleModel(loaded, access);
        const types = type ? [findReadableType(model, access, type)] : model.types;
        const shown = types.map((t) => model.types.find((candidate) => candidate.id === t.id)!);
        const markdown = [
          `Schema revision: ${model.schemaRevision}`,
          ...shown.map((t) =>
            [
              '',
              `## ${escapeMarkdown(t.name)} — type id \`${t.id}\`${t.builtin ? ` (built-in ${t.builtin})` : ''}`,
              '| Field | Field id | Kind | Notes |',
              '|---|---|---|---|',
              ...t.fields.map(
                (f) =>
                  `| ${escapeMarkdown(f.name)} | \`${f.id}\` | ${f.kind} | ${[f.restricted ? 'restricted for you' : '', f.config.options ? `options: ${f.config.options.map(escapeMarkdown).join(', ')}` : '', f.config.targetTypeId ? `links to \`${f.config.targetTypeId}\`` : ''].filter(Boolean).join('; ')} |`,
              ),
            ].join('\n'),
          ),
        ].join('\n');
        return untrustedResult(markdown, { schemaRevision: model.schemaRevision, types: shown });
      },
    }),

    defineTool({
      name: 'search_records',
      title: 'Search records',
      description:
        'Lists records of one type, newest first, optionally matching a search text and field filters ' +
        '({ fieldId, op: eq|neq|contains|gt|lt|isEmpty|isNotEmpty|in, value }). Returns Markdown.',
      input: z.strictObject({
        type: typeRef,
        search: z.string().max(200).optional(),
        filters: z.array(recordFilterSchema).max(20).optional(),
        trashed: z.boolean().optional().describe('List the Trash instead of active records.'),
        limit: z.number().int().min(1).max(50).optional(),
        cursor: z.string().max(200).optional(),
      }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      run: async (args, actor) => {
        const type = await typeOf(actor, args.type);
        const page = encodePage(
          await records.list(
            actor,
            type.id,
            decodePaging({
              search: args.search,
              filters: args.filters,
              status: args.trashed ? ('trashed' as const) : ('active' as const),
              limit: args.limit ?? 20,
              cursor: args.cursor,
            }),
          ),
        );
        const markdown = page.data.length
          ? [
              `${page.data.length} ${escapeMarkdown(type.name)} record(s)${page.nextCursor ? ` (more: cursor \`${page.nextCursor}\`)` : ''}:`,
              ...page.data.map(
                (view) => `- ${recordTitle(view, type)} — id \`${view.id}\`, version ${view.version}`,
              ),
            ].join('\n')
          : `No ${escapeMarkdown(type.name)} records match.`;
        return untrustedResult(markdown);
      },
    }),

    defineTool({
      name: 'read_record',
      title: 'Read a record',
      description:
        'Reads one record with every field (by stable field id), its links, assignees and identities, as Markdown.',
      input: z.strictObject({ type: typeRef, recordId }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      run: async (args, actor) => {
        const type = await typeOf(actor, args.type);
        return untrustedResult(
          recordToMarkdown(await records.get(actor, { typeRef: type.id, recordId: args.recordId }), type),
        );
      },
    }),

    defineTool({
      name: 'create_record',
      title: 'Create a record',
      description:
        'Creates a record. `values` maps field ids to values (text, number, date YYYY-MM-DD, boolean, a select option, ' +
        'or { documentJson } for formatted text); `links` maps link field ids to record ids.',
      input: recordWriteBody.extend({ type: typeRef, idempotencyKey: idempotencyKeyField }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      run: async ({ type: reference, ...input }, actor) => {
        const type = await typeOf(actor, reference);
        return untrustedResult(
          recordToMarkdown(await records.create(actor, mcpCause(actor), type.id, input), type),
        );
      },
    }),

    defineTool({
      name: 'update_record',
      title: 'Update a record',
      description:
        'Changes only the parts sent: values (null clears a field), links per link field, assignments, identities. ' +
        'A change that changes nothing is not recorded.',
      input: recordWriteBody.extend({ type: typeRef, recordId, idempotencyKey: idempotencyKeyField }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      run: async ({ type: reference, recordId: id, ...input }, actor) => {
        const type = await typeOf(actor, reference);
        const view = await records.update(actor, mcpCause(actor), { typeRef: type.id, recordId: id }, input);
        return untrustedResult(recordToMarkdown(view, type));
      },
    }),
  ];
}
