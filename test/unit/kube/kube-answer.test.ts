import { OperationError } from '../../../lib/errors.js';
import { kubeAnswerProblem } from '../../../lib/kube/kube-answer.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { fakeRunner, fakeTools, type FakeTools } from '../../fakes/fake-tools.js';

/** Issue 31, section 5: kubectl's JSON is checked where it is read; its shape errors name the command. */

describe('the shape of kubectl get -o json output', () => {
  it.each([
    ['a list of objects', { items: [{ metadata: { name: 'a' }, spec: {} }] }, false, undefined],
    ['an empty list', { items: [] }, false, undefined],
    ['null', null, false, 'the answer is null, not a List'],
    ['a list without items', { kind: 'List' }, false, '"items" is missing, not a list'],
    ['items: {}', { items: {} }, false, '"items" is an object, not a list'],
    ['items: [null]', { items: [null] }, false, 'item 0 is null, not an object'],
    ['an item without metadata', { items: [{ metadata: { name: 'a' } }, { spec: {} }] }, false, 'item 1 has metadata that is missing, not an object'],
    ['a name that is a number', { items: [{ metadata: { name: 5 } }] }, false, 'item 0 has metadata.name that is a number, not a string'],
    ['a spec that is null', { items: [{ metadata: { name: 'x' }, spec: null }] }, false, 'item 0 (x) has spec that is null, not an object'],
    ['one object', { metadata: { name: 'x' }, status: {} }, true, undefined],
    ['one object that is a list', [], true, 'the object is a list, not an object'],
    ['one object with status "ok"', { metadata: { name: 'x' }, status: 'ok' }, true, 'the object (x) has status that is a string, not an object'],
  ])('%s', (_what, value, named, problem) => {
    expect(kubeAnswerProblem(value, named)).toBe(problem);
  });
});

describe('kubectl getJson refuses output it cannot read, naming the command', () => {
  let fake: FakeTools | undefined;
  afterEach(() => fake?.cleanup());

  it.each([
    ['not JSON', 'Unexpected things\n', 'printed output kaas cannot read: not JSON (18 chars: "Unexpected things\\n")'],
    ['nothing', '', 'printed output kaas cannot read: nothing at all'],
    ['truncated JSON', '{"items": [{"metadata": {"name"', 'printed output kaas cannot read: not JSON'],
    ['items: [null]', '{"items": [null]}', 'printed output kaas cannot read: item 0 is null, not an object'],
  ])('%s', async (_what, stdout, said) => {
    fake = fakeTools([{ tool: 'kubectl', argv: ['get', 'nodes', '-o', 'json'], response: { stdout } }]);
    const k = createKubectl(fakeRunner(fake), {}, fake.bin('kubectl'));
    const err = await k.getJson('nodes').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).message).toContain(`${fake.bin('kubectl')} get nodes -o json ${said}`);
    expect((err as OperationError).hint).toContain('run the command yourself');
  });
});
