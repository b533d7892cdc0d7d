import { clearSecrets, redact, redactValue, registerSecret, registerUrlSecrets } from '../../../lib/redact.js';
import { createLogger, memoryLogger } from '../../../lib/log.js';
import { formatError, OperationError, SettingsError } from '../../../lib/errors.js';

describe('redaction', () => {
  afterEach(() => clearSecrets());

  it('replaces every registered secret wherever it appears', () => {
    registerSecret('s3cr3t-value');
    expect(redact('password=s3cr3t-value and again s3cr3t-value')).toBe('password=*** and again ***');
  });

  it('masks secret-named keys in nested data and keeps the rest', () => {
    const out = redactValue({ auth: { username: 'demo', password: 'pw-1234', application_credential_secret: 'x' }, list: ['a'] });
    expect(out).toEqual({ auth: { username: 'demo', password: '***', application_credential_secret: '***' }, list: ['a'] });
  });

  it('ignores values too short to be secrets, so that common words are not masked', () => {
    registerSecret('ab');
    expect(redact('ab cd')).toBe('ab cd');
  });
});

/** Issue 23, item 4: a password inside auth_url (http://user:pw@host) was printed in errors and traces. */
describe('redaction of URL userinfo', () => {
  afterEach(() => clearSecrets());

  it.each([
    ['error: Keystone: POST http://admin:pw-9x7@keystone:5000/v3/auth/tokens failed', 'error: Keystone: POST http://***@keystone:5000/v3/auth/tokens failed'],
    ['→ GET https://u%40x:p%2Fw@octavia.example/v2 {}', '→ GET https://***@octavia.example/v2 {}'],
    ['auth_url "HTTPS://user@host/v3"', 'auth_url "HTTPS://***@host/v3"'],
    ['mail admin@example.com, see http://host/a@b', 'mail admin@example.com, see http://host/a@b'],
    ['no url here: user:pw@host', 'no url here: user:pw@host'],
  ])('%s', (text, shown) => {
    expect(redact(text)).toBe(shown);
  });

  it('the password of auth_url is a secret even where it is printed without its URL', () => {
    registerUrlSecrets('http://admin:p%40ss-word@keystone:5000/v3');
    expect(redact('password p%40ss-word or p@ss-word')).toBe('password *** or ***');
  });
});

describe('logger', () => {
  afterEach(() => clearSecrets());

  it('never writes a registered secret, even in debug lines', () => {
    registerSecret('tok-ABCDEF');
    const log = memoryLogger(true);
    log.debug('X-Auth-Token: tok-ABCDEF');
    log.warn('failed with tok-ABCDEF');
    expect(log.lines.join('\n')).not.toContain('tok-ABCDEF');
    expect(log.lines).toHaveLength(2);
  });

  it('hides info with quiet but always shows warnings', () => {
    const lines: string[] = [];
    const log = createLogger({ quiet: true, write: (t) => lines.push(t) });
    log.info('hello');
    log.debug('debug');
    log.warn('careful');
    expect(lines).toEqual(['warning: careful\n']);
  });
});

describe('formatError', () => {
  it('lists problems and the hint, and shows the stack only when verbose', () => {
    const e = new SettingsError('invalid settings (2 problems)', ['a: bad', 'b: worse'], 'fix them');
    expect(formatError(e, false)).toBe('error: invalid settings (2 problems)\n  - a: bad\n  - b: worse\nhint: fix them');
    expect(formatError(e, true)).toContain('    at ');
    expect(e.exitCode).toBe(2);
    expect(new OperationError('x').exitCode).toBe(1);
  });
});
