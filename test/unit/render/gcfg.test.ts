import { gcfgSection, gcfgTrue, gcfgValue } from '../../../lib/render/gcfg.js';
import { iniValue } from '../../../lib/render/cloud-conf.js';

describe('gcfg, as OCCM reads cloud.conf', () => {
  it.each<[string, string]>([
    ['plain', 'plain'],
    ['  spaced out  ', 'spaced out'],
    ['a\tb', 'a\tb'],
    ['a  b ; comment', 'a  b'],
    ['value # comment', 'value'],
    ['value;comment', 'value'],
    ['# only a comment', ''],
    ['"quoted ; not a comment # either"', 'quoted ; not a comment # either'],
    ['"  keeps spaces  "', '  keeps spaces  '],
    ['"esc \\" quote and \\\\ backslash"', 'esc " quote and \\ backslash'],
    ['"\\n"', 'n'],
    ['pre "mid" post', 'pre mid post'],
    ['pre  "x"', 'pre  x'],
    ['"a"b', 'ab'],
    ['"quoted" ; comment after the quotes', 'quoted'],
    ['"unterminated', 'unterminated'],
    ['"trailing backslash\\', 'trailing backslash\\'],
    ['', ''],
  ])('value %j → %j', (raw, value) => {
    expect(gcfgValue(raw)).toBe(value);
  });

  it.each(['s3cr3t "x"', 'a\\b', 'with ; semicolon', 'with # hash', ' lead', 'x=y, z', 'plain'])('what cloud.conf writes, gcfg reads back: %j', (v) => {
    expect(gcfgValue(iniValue('password', v))).toBe(v);
    expect(gcfgValue(iniValue('node-selector', v))).toBe(v);
  });

  it.each<[string, string | undefined]>([
    ['[Global]', 'Global'],
    ['  [ LoadBalancer ]  ', 'LoadBalancer'],
    ['[Global] ; comment', 'Global'],
    ['[Global] # comment', 'Global'],
    ['[Global]; comment', 'Global'],
    ['lb-method = [x]', undefined],
    ['[Global] trailing', undefined],
    ['[]', undefined],
    ['Global', undefined],
    ['[Global', undefined],
  ])('section %j → %j', (line, name) => {
    expect(gcfgSection(line)).toBe(name);
  });

  it.each<[string | undefined, boolean]>([
    ['true', true], ['TRUE', true], ['yes', true], ['On', true], ['1', true], [' true ', true],
    ['false', false], ['0', false], ['no', false], ['off', false], ['truex', false], ['xtrue', false], ['', false], [undefined, false],
  ])('boolean %j → %s', (v, b) => {
    expect(gcfgTrue(v)).toBe(b);
  });
});
