import type { EntityManager } from 'typeorm';
import { modelAtRevision } from './model-cache';

/** A manager whose model query answers the workspace's current revision with one type. */
function modelDatabase(workspaceId: string) {
  const state = { revision: 1, typeName: 'Deal', queries: 0 };
  const manager = {
    query: async (_sql: string, [id]: string[]) => {
      state.queries++;
      expect(id).toBe(workspaceId);
      return [
        {
          schema_revision: state.revision,
          type_id: 'type-1',
          type_name: state.typeName,
          builtin: null,
          field_id: null,
        },
      ];
    },
  } as unknown as EntityManager;
  return { manager, state };
}

describe('the record model kept by schema revision', () => {
  it('reads a revision once, then answers it from memory', async () => {
    const { manager, state } = modelDatabase('ws-once');
    const first = await modelAtRevision(manager, 'ws-once', 1);
    const second = await modelAtRevision(manager, 'ws-once', 1);
    expect(second).toBe(first);
    expect(state.queries).toBe(1);
  });

  it('reads again when the caller holds a newer revision (a model change raised it)', async () => {
    const { manager, state } = modelDatabase('ws-changed');
    expect((await modelAtRevision(manager, 'ws-changed', 1)).types[0]!.name).toBe('Deal');
    state.revision = 2;
    state.typeName = 'Opportunity';
    const changed = await modelAtRevision(manager, 'ws-changed', 2);
    expect(changed).toMatchObject({ schemaRevision: 2, types: [{ name: 'Opportunity' }] });
    expect(await modelAtRevision(manager, 'ws-changed', 2)).toBe(changed);
    expect(state.queries).toBe(2);
  });

  it('keeps workspaces apart', async () => {
    const a = modelDatabase('ws-a');
    const b = modelDatabase('ws-b');
    b.state.typeName = 'Ticket';
    await modelAtRevision(a.manager, 'ws-a', 1);
    expect((await modelAtRevision(b.manager, 'ws-b', 1)).types[0]!.name).toBe('Ticket');
  });

  it('hands out a frozen model: no caller can change it for the others', async () => {
    const { manager } = modelDatabase('ws-frozen');
    const model = await modelAtRevision(manager, 'ws-frozen', 1);
    expect(() => (model.types as unknown[]).push({})).toThrow(TypeError);
    expect(() => {
      (model.types[0] as { name: string }).name = 'Changed';
    }).toThrow(TypeError);
  });
});
