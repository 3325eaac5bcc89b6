import Router from '@koa/router';
import type { Context } from 'koa';
import type { DataSource } from 'typeorm';
import { notFoundError } from '../shared/app-error';
import { actorOf } from '../identity/actor';
import { parse, parseId } from '../http/validate';
import type { ModelChangesService } from './model-changes.service';
import { createFieldBody, discoverBody, readTypeBody, typeBody, updateFieldBody } from './model.schemas';
import { findReadableType, visibleModel } from './model.service';
import { modelOf } from './model-cache';
import { recordAccessOf } from './record-access';

const typeNotFound = () => notFoundError('Record type not found.', 'recordTypeNotFound');
const fieldNotFound = () => notFoundError('Field not found.', 'recordFieldNotFound');

/** The `:id` of a type's or a field's path; a malformed one is the same 404 as an unknown one. */
const typeIdOf = (ctx: { params: Record<string, string> }) => parseId(ctx.params.id, typeNotFound);
const fieldIdOf = (ctx: { params: Record<string, string> }) => parseId(ctx.params.id, fieldNotFound);

/** The record model: discovery and stable ids for everyone, changes for Admins. */
export function modelRoutes(deps: { dataSource: DataSource; modelChanges: ModelChangesService }): Router {
  const { dataSource, modelChanges } = deps;
  const router = new Router();

  const visibleFor = async (ctx: Context) => {
    const actor = actorOf(ctx);
    const model = await modelOf(dataSource.manager, actor);
    return { access: recordAccessOf(actor.role, model), model };
  };

  /** The record types the caller can read. */
  router.post('/model/discover', async (ctx) => {
    parse(discoverBody, ctx.request.body);
    const { access, model } = await visibleFor(ctx);
    const visible = visibleModel(model, access);
    ctx.body = {
      schemaRevision: visible.schemaRevision,
      types: visible.types.map((type) => ({
        id: type.id,
        name: type.name,
        builtin: type.builtin,
        fieldCount: type.fields.length,
      })),
    };
  });

  /** One type with its fields' stable ids, and the schema revision. */
  router.post('/model/read', async (ctx) => {
    const { type: reference } = parse(readTypeBody, ctx.request.body);
    const { access, model } = await visibleFor(ctx);
    const type = findReadableType(model, access, reference);
    ctx.body = {
      schemaRevision: model.schemaRevision,
      type: {
        ...type,
        fields: type.fields.map((field) => ({ ...field, restricted: access.isFieldRestricted(field.id) })),
      },
    };
  });

  router.post('/model/types', async (ctx) => {
    const { name } = parse(typeBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = await modelChanges.createType(actorOf(ctx), name);
  });

  router.patch('/model/types/:id', async (ctx) => {
    const { name } = parse(typeBody, ctx.request.body);
    ctx.body = await modelChanges.renameType(actorOf(ctx), typeIdOf(ctx), name);
  });

  router.delete('/model/types/:id', async (ctx) => {
    await modelChanges.deleteType(actorOf(ctx), typeIdOf(ctx));
    ctx.status = 204;
  });

  router.post('/model/types/:id/fields', async (ctx) => {
    const body = parse(createFieldBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = await modelChanges.createField(actorOf(ctx), typeIdOf(ctx), body);
  });

  router.patch('/model/fields/:id', async (ctx) => {
    const body = parse(updateFieldBody, ctx.request.body);
    ctx.body = await modelChanges.updateField(actorOf(ctx), fieldIdOf(ctx), body);
  });

  router.delete('/model/fields/:id', async (ctx) => {
    await modelChanges.deleteField(actorOf(ctx), fieldIdOf(ctx));
    ctx.status = 204;
  });

  return router;
}
