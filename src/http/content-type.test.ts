import { refusesContentType } from './content-type';

describe('refusesContentType', () => {
  it.each([
    ['POST', true, 'text/plain'],
    ['PATCH', true, 'application/x-www-form-urlencoded'],
    ['PUT', true, 'multipart/form-data; boundary=x'],
    ['POST', true, undefined],
    ['PATCH', true, 'application/merge-patch+json'],
  ])('refuses %s with a body of type %s', (method, body, type) => {
    expect(refusesContentType(method, body, type)).toBe(true);
  });

  it.each([
    ['POST', true, 'application/json'],
    ['PATCH', true, 'Application/JSON; charset=utf-8'],
    ['POST', false, 'text/plain'],
    ['POST', false, undefined],
    ['DELETE', true, 'text/plain'],
    ['GET', true, 'text/plain'],
  ])('lets %s (body: %s) of type %s through', (method, body, type) => {
    expect(refusesContentType(method, body, type)).toBe(false);
  });
});
