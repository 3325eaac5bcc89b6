import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { projectRoot } from './project-root';

describe('loadConfig', () => {
  it('runs with no configuration at all (embedded defaults)', () => {
    const sut = loadConfig({});
    expect(sut.PORT).toBe(3000);
    expect(sut.TEMPORAL_UI_PORT).toBe(8233);
    expect(sut.DATABASE_URL).toBeUndefined();
    expect(sut.TEMPORAL_ADDRESS).toBeUndefined();
    expect(sut.DEPLOYMENT).toBe('self-hosted');
    expect(sut.PUBLIC_URL).toBe('http://localhost:3000');
    expect(sut.DATA_DIR).toBe(resolve(projectRoot(), '.data'));
  });

  it('holds ADMIN_PASSWORD to the web password rule (src/shared/credentials/password.rules.ts)', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(
      new ConfigError(
        'Invalid configuration: ADMIN_PASSWORD use at least 15 characters: a few unrelated words are easy to remember.',
      ),
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: 'password12345678' })).toThrow(/too common/);
    expect(loadConfig({ ADMIN_PASSWORD: 'plum kettle orbit 42' }).ADMIN_PASSWORD).toBe(
      'plum kettle orbit 42',
    );
    // Secrets are not echoed into the error (and so into logs).
    expect(() => loadConfig({ ENCRYPTION_KEY: 'my-secret-key' })).toThrow(/^((?!my-secret-key).)*$/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', TEMPORAL_ADDRESS: '' }).DATABASE_URL).toBeUndefined();
  });

  it('keeps external-mode settings', () => {
    const sut = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/crm',
      TEMPORAL_ADDRESS: 'temporal:7233',
      PUBLIC_URL: 'https://crm.example.com/',
    });
    expect(sut.DATABASE_URL).toBe('postgres://u:p@db:5432/crm');
    expect(sut.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(sut.PUBLIC_URL).toBe('https://crm.example.com');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DEPLOYMENT: 'saas' }, 'DEPLOYMENT'],
    [{ ADMIN_EMAIL: 'not-an-email' }, 'ADMIN_EMAIL'],
    [{ ENCRYPTION_KEY: 'short' }, 'ENCRYPTION_KEY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ OUTBOUND_ALLOWED_CIDRS: '10.0.0.0' }, 'OUTBOUND_ALLOWED_CIDRS'],
    [{ OUTBOUND_ALLOWED_CIDRS: '10.0.0.0/8,intranet' }, 'OUTBOUND_ALLOWED_CIDRS'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ DELIVERY_ATTEMPT_DETAILS_DAYS: '0' }, 'DELIVERY_ATTEMPT_DETAILS_DAYS'],
    [{ DELIVERY_ATTEMPT_DETAILS_DAYS: '-30' }, 'DELIVERY_ATTEMPT_DETAILS_DAYS'],
    [{ DELIVERY_ATTEMPT_DETAILS_DAYS: '7.5' }, 'DELIVERY_ATTEMPT_DETAILS_DAYS'],
    [{ DELIVERY_ATTEMPT_DETAILS_DAYS: '3651' }, 'DELIVERY_ATTEMPT_DETAILS_DAYS'],
    [{ DELIVERY_ATTEMPT_DETAILS_DAYS: 'forever' }, 'DELIVERY_ATTEMPT_DETAILS_DAYS'],
  ])('refuses %j with a one-line message naming %s', (env, variable) => {
    let caught: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
    expect(message).not.toContain('\n');
  });

  it('reads the mail settings: an smtp:// or smtps:// MAIL_URL and a MAIL_FROM', () => {
    const defaults = loadConfig({});
    expect(defaults.MAIL_URL).toBeUndefined();
    expect(defaults.MAIL_FROM).toBe('CRM <no-reply@localhost>');
    expect(defaults.MAIL_CATCHER_SMTP_PORT).toBe(1025);
    expect(defaults.MAIL_CATCHER_UI_PORT).toBe(8025);
    expect(loadConfig({ MAIL_URL: '' }).MAIL_URL).toBeUndefined();
    const sut = loadConfig({
      MAIL_URL: 'smtps://apikey:s3cret@smtp.example.com:465',
      MAIL_FROM: 'Acme CRM <crm@acme.test>',
    });
    expect(sut.MAIL_URL).toBe('smtps://apikey:s3cret@smtp.example.com:465');
    expect(sut.MAIL_FROM).toBe('Acme CRM <crm@acme.test>');
    expect(loadConfig({ MAIL_URL: 'smtp://mail:1025', MAIL_FROM: 'crm@acme.test' }).MAIL_FROM).toBe(
      'crm@acme.test',
    );
  });

  it.each([
    [{ MAIL_URL: 'http://smtp.example.com' }, 'MAIL_URL'],
    [{ MAIL_URL: 'smtp.example.com:587' }, 'MAIL_URL'],
    [{ MAIL_FROM: 'not an address' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'Eve <eve@acme.test>\r\nBcc: x@y.test' }, 'MAIL_FROM'],
    [{ MAIL_CATCHER_UI_PORT: 'eighty' }, 'MAIL_CATCHER_UI_PORT'],
  ])('refuses the mail setting %j, naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('never echoes MAIL_URL (it holds the SMTP password) in a configuration error', () => {
    expect(() => loadConfig({ MAIL_URL: 'ftp://user:hunter2@mail' })).toThrow(
      /^Invalid configuration: MAIL_URL must be an smtp:\/\/ or smtps:\/\/ URL$/,
    );
  });

  it('reads the outbound allow-list: unset (mode default), none, or CIDRs', () => {
    expect(loadConfig({}).OUTBOUND_ALLOWED_CIDRS).toBeUndefined();
    expect(loadConfig({ OUTBOUND_ALLOWED_CIDRS: '' }).OUTBOUND_ALLOWED_CIDRS).toBeUndefined();
    expect(loadConfig({ OUTBOUND_ALLOWED_CIDRS: 'none' }).OUTBOUND_ALLOWED_CIDRS).toEqual([]);
    expect(loadConfig({ OUTBOUND_ALLOWED_CIDRS: '10.0.0.0/8, fd00::/8' }).OUTBOUND_ALLOWED_CIDRS).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
    ]);
  });

  it('keeps attempt request details 30 days unless DELIVERY_ATTEMPT_DETAILS_DAYS says otherwise', () => {
    expect(loadConfig({}).DELIVERY_ATTEMPT_DETAILS_DAYS).toBe(30);
    expect(loadConfig({ DELIVERY_ATTEMPT_DETAILS_DAYS: '1' }).DELIVERY_ATTEMPT_DETAILS_DAYS).toBe(1);
    expect(loadConfig({ DELIVERY_ATTEMPT_DETAILS_DAYS: '90' }).DELIVERY_ATTEMPT_DETAILS_DAYS).toBe(90);
    expect(loadConfig({ DELIVERY_ATTEMPT_DETAILS_DAYS: '3650' }).DELIVERY_ATTEMPT_DETAILS_DAYS).toBe(3650);
  });

  it('trusts a proxy only when TRUST_PROXY says so', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });
});
