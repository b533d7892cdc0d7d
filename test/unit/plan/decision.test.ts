import { PlanError } from '../../../lib/errors.js';
import { andThen, decided, orThrow, refused, type Decision } from '../../../lib/plan/decision.js';

describe('Decision<T>', () => {
  it('decided carries value, reasons and warnings (empty by default)', () => {
    expect(decided(1)).toEqual({ ok: true, value: 1, reasons: [], warnings: [] });
    expect(decided('x', ['r'], ['w'])).toEqual({ ok: true, value: 'x', reasons: ['r'], warnings: ['w'] });
  });

  it('refused takes one refusal or several, and the reasons so far', () => {
    const r = { message: 'm', hint: 'h' };
    expect(refused(r)).toEqual({ ok: false, refusals: [r], reasons: [] });
    expect(refused([r, { message: 'n', hint: 'i' }], ['why'])).toEqual({ ok: false, refusals: [r, { message: 'n', hint: 'i' }], reasons: ['why'] });
  });

  it('orThrow returns the value of an accepted decision', () => {
    expect(orThrow(decided(42))).toBe(42);
  });

  it('orThrow turns refusals into one PlanError (exit 2): the first names message and hint, the others become problems', () => {
    const d = refused([{ message: 'first', hint: 'fix it', problems: ['detail a'] }, { message: 'second', hint: 'do b' }, { message: 'third', hint: 'do c' }]);
    let err: unknown;
    try {
      orThrow(d);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlanError);
    expect(err).toMatchObject({ message: 'first', hint: 'fix it', exitCode: 2, problems: ['detail a', 'second (do b)', 'third (do c)'] });
  });

  it('orThrow of a single refusal without problems has none', () => {
    expect(() => orThrow(refused({ message: 'only', hint: 'h' }))).toThrow(expect.objectContaining({ message: 'only', problems: [] }));
  });

  it('andThen chains values and concatenates reasons and warnings in order', () => {
    const d = andThen(decided(2, ['a'], ['w1']), (v) => decided(v * 3, ['b'], ['w2']));
    expect(d).toEqual({ ok: true, value: 6, reasons: ['a', 'b'], warnings: ['w1', 'w2'] });
  });

  it('andThen keeps the earlier reasons when the next step refuses', () => {
    const d = andThen(decided(2, ['a']), () => refused({ message: 'no', hint: 'h' }, ['b']));
    expect(d).toEqual({ ok: false, refusals: [{ message: 'no', hint: 'h' }], reasons: ['a', 'b'] });
  });

  it('andThen does not call the next step after a refusal', () => {
    const first: Decision<number> = refused({ message: 'stop', hint: 'h' }, ['r']);
    let called = 0;
    expect(andThen(first, () => decided(++called))).toBe(first);
    expect(called).toBe(0);
  });
});
