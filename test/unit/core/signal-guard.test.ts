import { EventEmitter } from 'node:events';
import { guardSignals, signalExitCode } from '../../../lib/exec/interrupt.js';

/** A guard on a fake process: the signals emitted by the test, the exits and the words recorded. */
function setup(onSignal: (sig: NodeJS.Signals) => void | Promise<void>) {
  const on = new EventEmitter();
  const exits: number[] = [];
  const said: string[] = [];
  const guard = guardSignals({
    signals: ['SIGINT', 'SIGTERM'], on: on as unknown as Pick<NodeJS.Process, 'on' | 'removeListener'>, exit: (c) => exits.push(c),
    onSignal: (sig) => { said.push(`last words ${sig}`); return onSignal(sig); },
    onAgain: (sig) => said.push(`again ${sig}`),
  });
  return { on, exits, said, guard };
}

describe('guardSignals: the one signal guard (check-lb, settings import)', () => {
  it.each([['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const)('%s exits %d', (sig, code) => {
    expect(signalExitCode(sig)).toBe(code);
  });

  it('no hold, no cleanup: the words, then the exit at once', () => {
    const { on, exits, said } = setup(() => undefined);
    on.emit('SIGTERM', 'SIGTERM');
    expect([said, exits]).toEqual([['last words SIGTERM'], [143]]);
  });

  it('hold: the exit waits until the held work has ended; interrupted() tells the work meanwhile', async () => {
    const { on, exits, said, guard } = setup(() => undefined);
    const seen: boolean[] = [];
    await guard.hold(async () => {
      on.emit('SIGINT', 'SIGINT');
      seen.push(guard.interrupted());
      expect(exits).toEqual([]);
    });
    expect([seen, said, exits]).toEqual([[true], ['last words SIGINT'], [130]]);
  });

  it('hold: a second signal meanwhile exits at once, and not again when the work ends', async () => {
    const { on, exits, said, guard } = setup(() => undefined);
    await guard.hold(async () => {
      on.emit('SIGINT', 'SIGINT');
      on.emit('SIGTERM', 'SIGTERM');
      expect(exits).toEqual([143]);
    });
    expect([said, exits]).toEqual([['last words SIGTERM'], [143]]);
  });

  it('clean up first: the exit waits for the cleanup; a second signal during it says so and exits at once', async () => {
    let done!: () => void;
    const { on, exits, said } = setup(() => new Promise<void>((r) => { done = r; }));
    on.emit('SIGINT', 'SIGINT');
    await Promise.resolve();
    expect(exits).toEqual([]);
    on.emit('SIGINT', 'SIGINT');
    expect([said, exits]).toEqual([['last words SIGINT', 'again SIGINT'], [130]]);
    done();
    await new Promise((r) => setImmediate(r));
    expect(exits).toEqual([130, 130]);
  });

  it('release detaches the handlers', () => {
    const { on, guard } = setup(() => undefined);
    expect(on.listenerCount('SIGINT')).toBe(1);
    guard.release();
    expect([on.listenerCount('SIGINT'), on.listenerCount('SIGTERM')]).toEqual([0, 0]);
  });
});
