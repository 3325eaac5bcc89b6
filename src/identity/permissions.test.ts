import { apiPermissions } from './permissions';

const role = (row: Partial<Parameters<typeof apiPermissions>[0]>) =>
  apiPermissions({
    isAdmin: false,
    apiRead: 'none',
    apiCreate: false,
    apiEdit: false,
    apiDelete: false,
    ...row,
  });

describe('apiPermissions (the API & Webhooks role row)', () => {
  it('Read access None (a new role) allows nothing, whatever boxes are ticked', () => {
    expect(role({})).toEqual({
      apiRead: false,
      apiCreate: false,
      apiEdit: false,
      apiDelete: false,
      manageWorkspace: false,
    });
    expect(role({ apiCreate: true, apiEdit: true, apiDelete: true }).apiCreate).toBe(false);
  });

  it('Read access All with no box ticked reads only', () => {
    expect(role({ apiRead: 'all' })).toEqual({
      apiRead: true,
      apiCreate: false,
      apiEdit: false,
      apiDelete: false,
      manageWorkspace: false,
    });
  });

  it('each box adds exactly its own right', () => {
    expect(role({ apiRead: 'all', apiCreate: true })).toMatchObject({
      apiCreate: true,
      apiEdit: false,
      apiDelete: false,
    });
    expect(role({ apiRead: 'all', apiEdit: true })).toMatchObject({
      apiCreate: false,
      apiEdit: true,
      apiDelete: false,
    });
    expect(role({ apiRead: 'all', apiDelete: true })).toMatchObject({
      apiCreate: false,
      apiEdit: false,
      apiDelete: true,
    });
  });

  it('the Admin role can do everything', () => {
    expect(role({ isAdmin: true })).toEqual({
      apiRead: true,
      apiCreate: true,
      apiEdit: true,
      apiDelete: true,
      manageWorkspace: true,
    });
  });
});
