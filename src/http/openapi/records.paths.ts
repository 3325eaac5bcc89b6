import { z } from 'zod';
import {
  createFieldBody,
  discoverBody,
  readTypeBody,
  typeBody,
  updateFieldBody,
} from '../../record-model/model.schemas';
import { listRecordsQuery, recordWriteBody } from '../../records/records.schemas';
import { BUILTIN_TYPES } from '../../record-model/record-type.entity';
import { body, FILTER_CODES, uuidParam, type OperationSpec } from './operation';
import {
  modelDiscoverySchema,
  modelTypeReadSchema,
  recordFieldResourceSchema,
  recordPageSchema,
  recordTypeResourceSchema,
  recordViewSchema,
} from './responses';

const RECORD_VALUE_CODES = [
  'recordFieldUnknown',
  'recordFieldReadOnly',
  'recordValueInvalid',
  'recordLinkTargetInvalid',
  'recordAssigneeInvalid',
  'recordIdentityInvalid',
];

const RECORD_LOCATION_CODES = ['recordTypeNotFound', 'recordNotFound'];

const FIELD_CONFIG_CODES = [
  'recordFieldOptionsRequired',
  'recordFieldTargetRequired',
  'formulaInvalid',
  'formulaTooLong',
  'formulaTooDeep',
  'formulaUnknownField',
  'formulaFieldNotNumeric',
  'formulaCycle',
];

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

const adminOnly = 'Admin only; raises the schema revision.';

/** The record model: discovery for everyone, changes for Admins. */
export const MODEL_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/v1/model/discover',
    operationId: 'discoverModel',
    summary: 'List the record types you can read',
    tag: 'Record model',
    body: body(discoverBody, {}),
    success: {
      status: 200,
      description: 'The readable types and the schema revision.',
      schema: modelDiscoverySchema,
    },
  },
  {
    method: 'post',
    path: '/api/v1/model/read',
    operationId: 'readModelType',
    summary: "Resolve a type's stable field ids",
    tag: 'Record model',
    body: body(readTypeBody, { type: 'deal' }),
    success: {
      status: 200,
      description: 'The type with its fields and the schema revision.',
      schema: modelTypeReadSchema,
    },
    refusals: { 404: ['recordTypeNotFound'] },
  },
  {
    method: 'post',
    path: '/api/v1/model/types',
    operationId: 'createRecordType',
    summary: 'Create a record type',
    description: `${adminOnly} The new type has one text field, Name.`,
    tag: 'Record model',
    body: body(typeBody, { name: 'Projects' }),
    success: { status: 201, description: 'The new type.', schema: recordTypeResourceSchema },
    refusals: { 409: ['recordTypeNameTaken'] },
  },
  {
    method: 'patch',
    path: '/api/v1/model/types/{id}',
    operationId: 'renameRecordType',
    summary: 'Rename a record type',
    description: `${adminOnly} The id stays.`,
    tag: 'Record model',
    pathParams: { id: uuidParam('record type') },
    body: body(typeBody, { name: 'Client projects' }),
    success: { status: 200, description: 'The renamed type.', schema: recordTypeResourceSchema },
    refusals: { 404: ['recordTypeNotFound'], 409: ['recordTypeNameTaken'] },
  },
  {
    method: 'delete',
    path: '/api/v1/model/types/{id}',
    operationId: 'deleteRecordType',
    summary: 'Delete a record type',
    description: `${adminOnly} Built-in types stay.`,
    tag: 'Record model',
    pathParams: { id: uuidParam('record type') },
    success: { status: 204, description: 'Deleted.' },
    refusals: { 404: ['recordTypeNotFound'], 409: ['recordTypeBuiltin'] },
  },
  {
    method: 'post',
    path: '/api/v1/model/types/{id}/fields',
    operationId: 'createRecordField',
    summary: 'Add a field to a record type',
    description: `${adminOnly} select needs \`config.options\`, formula \`config.expression\` (e.g. \`{<fieldId>} * {<fieldId>} / 100\`), link \`config.targetTypeId\`.`,
    tag: 'Record model',
    pathParams: { id: uuidParam('record type') },
    body: body(createFieldBody, {
      name: 'Stage',
      kind: 'select',
      config: { options: ['Lead', 'Won', 'Lost'] },
    }),
    success: { status: 201, description: 'The new field.', schema: recordFieldResourceSchema },
    refusals: { 400: FIELD_CONFIG_CODES, 404: ['recordTypeNotFound'], 409: ['recordFieldNameTaken'] },
  },
  {
    method: 'patch',
    path: '/api/v1/model/fields/{id}',
    operationId: 'updateRecordField',
    summary: 'Rename a field or change its configuration',
    description: `${adminOnly} A changed formula recalculates stored values without per-record events.`,
    tag: 'Record model',
    pathParams: { id: uuidParam('field') },
    body: body(updateFieldBody, {
      name: 'Pipeline stage',
      config: { options: ['Lead', 'Qualified', 'Won', 'Lost'] },
    }),
    success: { status: 200, description: 'The changed field.', schema: recordFieldResourceSchema },
    refusals: {
      400: FIELD_CONFIG_CODES,
      404: ['recordFieldNotFound', 'recordTypeNotFound'],
      409: ['recordFieldNameTaken'],
    },
  },
  {
    method: 'delete',
    path: '/api/v1/model/fields/{id}',
    operationId: 'deleteRecordField',
    summary: 'Delete a field',
    description: `${adminOnly} A field that a formula uses stays.`,
    tag: 'Record model',
    pathParams: { id: uuidParam('field') },
    success: { status: 204, description: 'Deleted.' },
    refusals: { 404: ['recordFieldNotFound'], 409: ['recordFieldInUse'] },
  },
];

/** Records of a type (`{type}` is a type id, name or built-in key). */
export const RECORD_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/records/{type}',
    operationId: 'listRecords',
    summary: 'List records, newest first',
    description:
      'Search (text, email, url, select and formatted text values), filters on fields and links, the Trash, paging.',
    tag: 'Records',
    pathParams: { type: typeParam },
    query: listRecordsQuery,
    success: { status: 200, description: 'One page of records.', schema: recordPageSchema },
    refusals: {
      400: ['cursorInvalid', 'queryFiltersInvalid', ...FILTER_CODES, 'recordFieldRestricted'],
      404: ['recordTypeNotFound'],
    },
  },
  {
    method: 'post',
    path: '/api/v1/records/{type}',
    operationId: 'createRecord',
    summary: 'Create a record',
    description: 'Values by field id; link fields through `links`. Emits record.created.',
    tag: 'Records',
    pathParams: { type: typeParam },
    body: body(recordWriteBody, recordWriteExample),
    success: { status: 201, description: 'The new record.', schema: recordViewSchema },
    refusals: { 400: RECORD_VALUE_CODES, 403: ['recordFieldRestricted'], 404: ['recordTypeNotFound'] },
  },
  {
    method: 'get',
    path: '/api/v1/records/{type}/{id}',
    operationId: 'getRecord',
    summary: 'Read a record',
    tag: 'Records',
    pathParams: recordParams,
    success: { status: 200, description: 'The record.', schema: recordViewSchema },
    refusals: { 404: RECORD_LOCATION_CODES },
  },
  {
    method: 'patch',
    path: '/api/v1/records/{type}/{id}',
    operationId: 'updateRecord',
    summary: 'Update a record',
    description:
      'Only what is sent changes; `null` clears a value. Emits record.updated unless nothing changed.',
    tag: 'Records',
    pathParams: recordParams,
    body: body(recordWriteBody, { values: { [FIELD_ID]: 'Acme renewal 2027', [OTHER_FIELD_ID]: null } }),
    success: { status: 200, description: 'The record.', schema: recordViewSchema },
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
    success: { status: 200, description: 'The trashed record.', schema: recordViewSchema },
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
    success: { status: 200, description: 'The restored record.', schema: recordViewSchema },
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
    success: { status: 204, description: 'Deleted.' },
    refusals: { 404: RECORD_LOCATION_CODES, 409: ['recordNotTrashed'] },
  },
];
