import { formatReport } from '../../../lib/checks/findings.js';
import { formatError, OperationError } from '../../../lib/errors.js';
import { createLogger } from '../../../lib/log.js';
import { ExecError } from '../../../lib/exec/runner.js';
import { oneLine, printable, thrownLine } from '../../../lib/visible.js';

/** Issue 31, section 5: names from the cloud or the cluster reach the terminal with their control characters escaped. */

describe('printable and oneLine', () => {
  it.each([
    ['plain text', 'kube_service_demo_a_b', 'kube_service_demo_a_b'],
    ['an escape sequence', 'lb\u001b[2J\u001b]0;owned\u0007', 'lb\\u001b[2J\\u001b]0;owned\\u0007'],
    ['a C1 control and DEL', 'a\u009bb\u007f', 'a\\u009bb\\u007f'],
    ['a bidi override', 'a\u202eb', 'a\\u202eb'],
    ['newline and tab stay', 'line 1\n\tline 2', 'line 1\n\tline 2'],
    ['a carriage return', 'ok\rfake', 'ok\\u000dfake'],
    ['ä stays', 'Gänse', 'Gänse'],
  ])('printable: %s', (_what, text, want) => {
    expect(printable(text)).toBe(want);
  });

  it('oneLine escapes newlines too: a name cannot fake a "hint:" line', () => {
    expect(oneLine('lb\nhint: run rm -rf ~')).toBe('lb\\u000ahint: run rm -rf ~');
  });
});

describe('thrownLine: one printable line for whatever was thrown', () => {
  it.each([
    ['an Error: its first line', new Error('cannot delete:\nsecond line'), 'cannot delete'],
    ['a string', 'refused', 'refused'],
    ['null', null, 'null'],
    ['an object with a message', { message: 'gone' }, 'gone'],
    ['a failed tool: the last line of its stderr', new ExecError('kubectl', ['delete', 'namespace', 'x'], 1, 'warning\nError from server (Forbidden)\n'), 'kubectl delete namespace x exited with 1 (Error from server (Forbidden))'],
    // Was check-lb's firstLine, which left a tab and an escape sequence raw in its "problem" (its JSON data has no logger to escape it).
    ['a tab and an escape sequence escaped as oneLine does', new Error('a\tb\u001b[2J'), 'a\\u0009b\\u001b[2J'],
  ])('%s', (_what, thrown, want) => {
    expect(thrownLine(thrown)).toBe(want);
  });
});

describe('the output layer escapes what it prints', () => {
  it('the logger escapes the message but keeps its own colour', () => {
    const lines: string[] = [];
    const l = createLogger({ color: true, write: (t) => lines.push(t) });
    l.warn('load balancer \u001b[31mred\u001b[0m is stuck');
    l.info('x\u0007');
    expect(lines).toEqual(['\u001b[33mwarning:\u001b[0m load balancer \\u001b[31mred\\u001b[0m is stuck\n', 'x\\u0007\n']);
  });

  it('an error line escapes control characters of the names it quotes', () => {
    const text = formatError(new OperationError('load balancer "a\u001b[8m" is in ERROR', { hint: 'delete \u001b]0;x\u0007' }), false);
    expect(text).toBe('error: load balancer "a\\u001b[8m" is in ERROR\nhint: delete \\u001b]0;x\\u0007');
  });

  it('doctor prints every field of a finding on its own line, whatever the name holds', () => {
    const text = formatReport({
      findings: [{ check: 'lb-error', severity: 'error', resource: { type: 'loadbalancer', id: 'l1', name: 'x\nhint: all is fine' }, message: 'Load balancer x\nhint: all is fine is in ERROR.', fix: 'delete it' }],
      checked: ['lb-error'], skipped: [], couldNotRun: [],
    } as never, 'doctor');
    expect(text.split('\n').filter((l) => l.startsWith('hint:'))).toEqual([]);
    expect(text).toContain('  [lb-error] loadbalancer x\\u000ahint: all is fine (l1)');
  });
});
