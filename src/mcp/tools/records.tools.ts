import type { DataSource } from 'typeorm';
import { decodePaging, encodePage } from '../../http/paging';
import { z } from 'zod';
import { findReadableType, visibleModel } from '../../record-model/model.service';
import { modelOf } from '../../record-model/model-cache';
import { recordAccessOf } from '../../record-model/record-access';
import { QUERY_FILTERS_MAX, recordFilterSchema } from '../../records/query/record-query';
import { listRecordsQuery, recordWriteBody } from '../../records/records.schemas';
import { modelTypeReadSchema } from '../../record-model/model-view';
import { canonicalUuid } from '../../shared/id-spelling';
import { resolveFilterFields } from '../../record-model/field-refs';
import type { RecordsService } from '../../records/records.service';
import { escapeMarkdown, untrusted } from '../markdown';
import { defineTool, idempotencyKeyField, UNTRUSTED_META_KEY, type McpTool } from '../mcp-tool';
import { describeInput } from '../schemas/names';
import { recordToMarkdown, recordTitle } from '../record-markdown';
import type { McpActor } from '../mcp-tool';
import type { WriteCause } from '../../records/write-cause';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const typeRef = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('Record type: id (get_record_model), name or built-in key (e.g. "deal").');
const recordId = canonicalUuid().describe('The record id (from search_records or create_record).');

const FIELD_BY_ID_OR_NAME = 'Fields by id (get_record_model) or name (e.g. "Name").';

const identity = recordWriteBody.shape.identities.unwrap().element.shape;
describeInput(identity.kind, 'What the value is: email, phone or social (a handle).');
describeInput(identity.value, 'The address, number or handle.');

/** The record write inputs (the REST body schema), described; values and links take field ids or names. */
const recordWriteInput = recordWriteBody.extend({
  values: recordWriteBody.shape.values.describe(
    'Field to value: text, number, date YYYY-MM-DD, boolean, a select option, or { documentJson } for formatted ' +
      `text; null clears it. ${FIELD_BY_ID_OR_NAME}`,
  ),
  links: recordWriteBody.shape.links.describe(
    `Link field to the ids of the records it links to (replaces its links). ${FIELD_BY_ID_OR_NAME}`,
  ),
  assignments: recordWriteBody.shape.assignments.describe('User ids of the assignees (replaces the list).'),
  identities: recordWriteBody.shape.identities.describe(
    "The record's email addresses, phone numbers and social handles (replaces the list).",
  ),
  idempotencyKey: idempotencyKeyField,
});

/** What get_record_model answers in `structuredContent` (the REST model/read type, for each type). */
const recordModelSchema = z.object({
  schemaRevision: modelTypeReadSchema.shape.schemaRevision,
  types: z.array(modelTypeReadSchema.shape.type),
});

/** Record content is written by people: every result says so, in `_meta` and in a visible fence. */
const untrustedResult = (markdown: string, structuredContent?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: untrusted(markdown) }],
  ...(structuredContent ? { structuredContent } : {}),
  _meta: { [UNTRUSTED_META_KEY]: true },
});

const mcpCause = (actor: McpActor): WriteCause =>
  'apiKeyId' in actor
    ? { kind: 'mcp', apiKeyId: actor.apiKeyId }
    : { kind: 'mcp', oauthConnectionId: actor.oauthConnectionId };

/** get_record_model, search_records, read_record, create_record, update_record. */
export function recordTools(deps: { dataSource: DataSource; records: RecordsService }): McpTool[] {
  const { dataSource, records } = deps;

  const typeOf = async (actor: McpActor, reference: string) => {
    const model = await modelOf(dataSource.manager, actor);
    const access = recordAccessOf(actor.role, model);
    return { type: findReadableType(model, access, reference), access };
  };

  return [
    defineTool({
      name: 'get_record_model',
      title: 'Get the record model',
      description:
        'The record types you can read: their fields, stable type and field ids, field kinds, and the schema ' +
        'revision (expectedSchemaRevision of record webhooks in manage_webhooks).',
      input: z.strictObject({
        type: typeRef
          .optional()
          .describe('Only this record type: its id, name (e.g. "Contact") or built-in key.'),
      }),
      output: recordModelSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      run: async ({ type }, actor) => {
        const loaded = await modelOf(dataSource.manager, actor);
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
        const structured: z.output<typeof recordModelSchema> = {
          schemaRevision: model.schemaRevision,
          types: shown,
        };
        return untrustedResult(markdown, structured);
      },
    }),

    defineTool({
      name: 'search_records',
      title: 'Search records',
      description:
        'Lists records of one type, newest first, by search text and field filters, as Markdown with their ids.',
      input: z.strictObject({
        type: typeRef,
        search: listRecordsQuery.shape.search.describe(
          'Text in any text, email, URL, select or formatted text value.',
        ),
        filters: z
          .array(recordFilterSchema)
          .max(QUERY_FILTERS_MAX)
          .optional()
          .describe(`All must match. ${FIELD_BY_ID_OR_NAME}`),
        trashed: z.boolean().optional().describe('List the Trash instead of active records.'),
        limit: listRecordsQuery.shape.limit.describe('Page size.'),
        cursor: listRecordsQuery.shape.cursor.describe(
          'The cursor the previous page named, for the next one.',
        ),
      }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      run: async (args, actor) => {
        const { type, access } = await typeOf(actor, args.type);
        const page = encodePage(
          await records.list(
            actor,
            type.id,
            decodePaging({
              search: args.search,
              filters: resolveFilterFields(type, args.filters, {
                modelSource: 'get_record_model',
                isRestricted: (fieldId) => access.isFieldRestricted(fieldId),
              }),
              status: args.trashed ? ('trashed' as const) : ('active' as const),
              limit: args.limit,
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
        'Reads one record: every field (name and id), links, assignees and identities, as Markdown.',
      input: z.strictObject({ type: typeRef, recordId }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      run: async (args, actor) => {
        const { type } = await typeOf(actor, args.type);
        return untrustedResult(
          recordToMarkdown(await records.get(actor, { typeRef: type.id, recordId: args.recordId }), type),
        );
      },
    }),

    defineTool({
      name: 'create_record',
      title: 'Create a record',
      description: 'Creates a record of a type from values and links; answers it as Markdown with its id.',
      input: recordWriteInput.extend({ type: typeRef }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      run: async ({ type: reference, ...input }, actor) => {
        // Field names become ids in the record rules, as for REST (resolveWriteFields).
        const { type } = await typeOf(actor, reference);
        const created = await records.create(actor, mcpCause(actor), type.id, input);
        return untrustedResult(recordToMarkdown(created, type));
      },
    }),

    defineTool({
      name: 'update_record',
      title: 'Update a record',
      description:
        'Changes only the parts sent: values, links per field, assignments, identities. A change that changes ' +
        'nothing is not recorded.',
      input: recordWriteInput.extend({ type: typeRef, recordId }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      run: async ({ type: reference, recordId: id, ...input }, actor) => {
        const { type } = await typeOf(actor, reference);
        const view = await records.update(actor, mcpCause(actor), { typeRef: type.id, recordId: id }, input);
        return untrustedResult(recordToMarkdown(view, type));
      },
    }),
  ];
}
