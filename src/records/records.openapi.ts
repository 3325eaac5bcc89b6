import { z } from 'zod';
import type { ComponentSchemas } from '../http/openapi/components';
import { answer, body, DELETED, type OperationSpec, pagedList, uuidParam } from '../http/openapi/operation';
import type { Check, Same } from '../http/view-schemas';
import { BUILTIN_TYPES } from '../record-model/builtin-types';
import { RECORD_FILTER_OPS, recordFilterSchema, recordQuerySchema } from './query/record-query';
import {
  recordPageExample,
  recordPageSchema,
  recordViewExample,
  recordViewSchema,
  trashedRecordExample,
  relatedRecordSchema,
  valueStateSchema,
  type RecordPage,
  type RecordView,
} from './record-view';
import { listRecordsQuery, recordWriteBody } from './records.schemas';
import type { RecordsService } from './records.service';
import type { EncodedPage } from '../http/paging';

/** The refusals of a record query's filters (records and webhook record settings). */
export const FILTER_CODES = ['queryUnknownField', 'queryOperatorNotAllowed', 'queryValueInvalid'];

const RECORD_VALUE_CODES = [
  'recordFieldUnknown',
  'recordFieldAmbiguous',
  'recordFieldDuplicate',
  'recordFieldReadOnly',
  'recordValueInvalid',
  'recordLinkTargetInvalid',
  'recordAssigneeInvalid',
  'recordIdentityInvalid',
];

const RECORD_LOCATION_CODES = ['recordTypeNotFound', 'recordNotFound'];

const typeParam = {
  description: `A type id, a type name, or a built-in key (${BUILTIN_TYPES.join(', ')}).`,
  schema: z.string().min(1),
};
const recordParams = { type: typeParam, id: uuidParam('record') };

/** Placeholders: field ids and record ids are stable UUIDs of your workspace (`POST /model/read`). */
const FIELD_ID = '0b6a6f4e-7a0f-4c2a-9d55-1f3c2b8e4a10';
const OTHER_FIELD_ID = '5d2e8c1b-3f4a-4e6b-8a9c-7b1d0e2f3a40';
const LINKED_RECORD_ID = '9c4b2a1d-6e5f-4a3b-8c7d-2e1f0a9b8c70';

const recordWriteExample = {
  values: { [FIELD_ID]: 'Acme renewal', [OTHER_FIELD_ID]: 12500 },
  links: { '3e1d2c4b-5a69-4788-9bab-cdef01234567': [LINKED_RECORD_ID] },
  identities: [{ kind: 'email' as const, value: 'buyer@acme.example' }],
};

/** Records of a type (`{type}` is a type id, name or built-in key). */
export const RECORD_OPERATIONS: OperationSpec[] = [
  pagedList({
    path: '/api/v1/records/{type}',
    operationId: 'listRecords',
    summary: 'List records, newest first',
    description:
      'Search (text, email, url, select and formatted text values), filters on fields and links, the Trash, paging.',
    tag: 'Records',
    pathParams: { type: typeParam },
    query: listRecordsQuery,
    queryDescriptions: {
      filters: `A JSON array of \`{ fieldId, op, value }\` (op one of ${RECORD_FILTER_OPS.join(', ')}); on a link field eq/neq/in take record ids.`,
      status: '`trashed` lists the Trash.',
    },
    items: 'records',
    page: recordPageSchema,
    example: recordPageExample,
    refusals: {
      400: ['queryFiltersInvalid', ...FILTER_CODES, 'recordFieldRestricted'],
      404: ['recordTypeNotFound'],
    },
  }),
  {
    method: 'post',
    path: '/api/v1/records/{type}',
    operationId: 'createRecord',
    summary: 'Create a record',
    description:
      '`values` and `links` name each field by its id or by its name (trimmed, case-insensitive), as the MCP ' +
      'record tools do: an id always means its own field; an unknown name (`recordFieldUnknown`, naming the ' +
      "type's fields), a name several fields share (`recordFieldAmbiguous`, with their ids) and one field sent " +
      'twice (`recordFieldDuplicate`) are refused, and a field your role restricts answers `recordFieldRestricted` ' +
      'by name as by id. Link fields through `links`. Emits record.created.',
    tag: 'Records',
    pathParams: { type: typeParam },
    body: body(recordWriteBody, recordWriteExample),
    success: answer(201, 'The new record.', recordViewSchema, {
      ...recordViewExample,
      version: 1,
      updatedAt: recordViewExample.createdAt,
    }),
    refusals: { 400: RECORD_VALUE_CODES, 403: ['recordFieldRestricted'], 404: ['recordTypeNotFound'] },
  },
  {
    method: 'get',
    path: '/api/v1/records/{type}/{id}',
    operationId: 'getRecord',
    summary: 'Read a record',
    tag: 'Records',
    pathParams: recordParams,
    success: answer(200, 'The record.', recordViewSchema, recordViewExample),
    refusals: { 404: RECORD_LOCATION_CODES },
  },
  {
    method: 'patch',
    path: '/api/v1/records/{type}/{id}',
    operationId: 'updateRecord',
    summary: 'Update a record',
    description:
      'Only what is sent changes; `null` clears a value. Fields by id or by name, as in `createRecord`. Emits ' +
      'record.updated unless nothing changed.',
    tag: 'Records',
    pathParams: recordParams,
    body: body(recordWriteBody, { values: { Name: 'Acme renewal 2027', [OTHER_FIELD_ID]: null } }),
    success: answer(200, 'The record.', recordViewSchema, recordViewExample),
    refusals: {
      400: RECORD_VALUE_CODES,
      403: ['recordFieldRestricted'],
      404: RECORD_LOCATION_CODES,
      409: ['recordTrashed'],
    },
  },
  {
    method: 'post',
    path: '/api/v1/records/{type}/{id}/trash',
    operationId: 'trashRecord',
    summary: 'Move a record to the Trash',
    description: 'Emits record.deleted; the record is erased after 30 days in the Trash.',
    tag: 'Records',
    pathParams: recordParams,
    success: answer(200, 'The trashed record.', recordViewSchema, trashedRecordExample),
    refusals: { 404: RECORD_LOCATION_CODES, 409: ['recordTrashed'] },
  },
  {
    method: 'post',
    path: '/api/v1/records/{type}/{id}/restore',
    operationId: 'restoreRecord',
    summary: 'Restore a record from the Trash',
    description: 'Emits record.restored.',
    tag: 'Records',
    pathParams: recordParams,
    success: answer(200, 'The restored record.', recordViewSchema, { ...recordViewExample, version: 6 }),
    refusals: { 404: RECORD_LOCATION_CODES, 409: ['recordNotTrashed'] },
  },
  {
    method: 'delete',
    path: '/api/v1/records/{type}/{id}',
    operationId: 'deleteRecord',
    summary: 'Delete a trashed record permanently',
    description: 'Only from the Trash. Emits record.deletedPermanently.',
    tag: 'Records',
    pathParams: recordParams,
    success: DELETED,
    refusals: { 404: RECORD_LOCATION_CODES, 409: ['recordNotTrashed'] },
  },
];

export const RECORD_COMPONENTS: ComponentSchemas = {
  shared: { RecordQuery: recordQuerySchema, RecordFilter: recordFilterSchema },
  requests: { RecordWriteBody: recordWriteBody },
  responses: {
    ValueState: valueStateSchema,
    RelatedRecord: relatedRecordSchema,
    Record: recordViewSchema,
    RecordPage: recordPageSchema,
  },
};

/** Held equal to what the records service answers. */
type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
export type RecordViewChecks = [
  Check<Same<Answer<RecordsService['list']>['data'][number], RecordView>>,
  Check<Same<EncodedPage<Answer<RecordsService['list']>>, RecordPage>>,
];
