import type { ComponentSchemas } from '../http/openapi/components';
import { answer, body, DELETED, type OperationSpec, uuidParam } from '../http/openapi/operation';
import type { Check, Json, Same } from '../http/view-schemas';
import { createFieldBody, discoverBody, readTypeBody, typeBody, updateFieldBody } from './model.schemas';
import type { visibleModel } from './model.service';
import {
  modelDiscoveryExample,
  modelTypeReadExample,
  recordFieldResourceExample,
  recordTypeResourceExample,
  modelDiscoverySchema,
  modelTypeReadSchema,
  recordFieldResourceSchema,
  recordTypeResourceSchema,
  type ModelDiscovery,
  type ModelTypeRead,
  type RecordFieldResource,
  type RecordTypeResource,
} from './model-view';
import type { RecordField } from './record-field.entity';
import type { RecordType } from './record-type.entity';

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
    success: answer(
      200,
      'The readable types and the schema revision.',
      modelDiscoverySchema,
      modelDiscoveryExample,
    ),
  },
  {
    method: 'post',
    path: '/api/v1/model/read',
    operationId: 'readModelType',
    summary: "Resolve a type's stable field ids",
    tag: 'Record model',
    body: body(readTypeBody, { type: 'deal' }),
    success: answer(
      200,
      'The type with its fields and the schema revision.',
      modelTypeReadSchema,
      modelTypeReadExample,
    ),
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
    success: answer(201, 'The new type.', recordTypeResourceSchema, recordTypeResourceExample),
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
    success: answer(200, 'The renamed type.', recordTypeResourceSchema, {
      ...recordTypeResourceExample,
      name: 'Client projects',
    }),
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
    success: DELETED,
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
    success: answer(201, 'The new field.', recordFieldResourceSchema, recordFieldResourceExample),
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
    success: answer(200, 'The changed field.', recordFieldResourceSchema, {
      ...recordFieldResourceExample,
      name: 'Pipeline stage',
      config: { options: ['Lead', 'Qualified', 'Won', 'Lost'] },
    }),
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
    success: DELETED,
    refusals: { 404: ['recordFieldNotFound'], 409: ['recordFieldInUse'] },
  },
];

export const MODEL_COMPONENTS: ComponentSchemas = {
  requests: {
    DiscoverModelBody: discoverBody,
    ReadModelTypeBody: readTypeBody,
    RecordTypeBody: typeBody,
    CreateFieldBody: createFieldBody,
    UpdateFieldBody: updateFieldBody,
  },
  responses: {
    ModelDiscovery: modelDiscoverySchema,
    ModelTypeRead: modelTypeReadSchema,
    RecordTypeResource: recordTypeResourceSchema,
    RecordFieldResource: recordFieldResourceSchema,
  },
};

// ---- Held equal to what the routes and model changes answer ---------------------------------

type Visible = ReturnType<typeof visibleModel>;
/** A just-created entity has no `deletedAt` key yet (TypeORM returns only generated columns). */
type ModelChangeAnswer<T> = Omit<Json<T>, 'deletedAt'> & { deletedAt?: string | null };

export type ModelViewChecks = [
  Check<
    Same<
      ModelDiscovery,
      {
        schemaRevision: Visible['schemaRevision'];
        types: (Pick<Visible['types'][number], 'id' | 'name' | 'builtin'> & { fieldCount: number })[];
      }
    >
  >,
  Check<Same<ModelTypeRead, { schemaRevision: number; type: Visible['types'][number] }>>,
  Check<Same<RecordTypeResource, ModelChangeAnswer<RecordType>>>,
  Check<Same<RecordFieldResource, ModelChangeAnswer<RecordField>>>,
];
