import { API_KEY_PATTERN, generateApiKeyValue, hashApiKeyValue } from './api-key-value';

describe('API key values', () => {
  it('are 64 ASCII letters', () => {
    for (let i = 0; i < 200; i++) expect(generateApiKeyValue()).toMatch(API_KEY_PATTERN);
  });

  it('use both cases and never repeat', () => {
    const values = new Set(Array.from({ length: 500 }, generateApiKeyValue));
    expect(values.size).toBe(500);
    const all = [...values].join('');
    expect(all).toMatch(/[a-z]/);
    expect(all).toMatch(/[A-Z]/);
  });

  it('are stored as a SHA-256 hex digest, never as themselves', () => {
    const value = generateApiKeyValue();
    const hash = hashApiKeyValue(value);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(value);
    expect(hashApiKeyValue(value)).toBe(hash);
  });
});
