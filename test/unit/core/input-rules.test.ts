import { parseDuration } from '../../../lib/duration.js';
import { isIp, parseCidr } from '../../../lib/net/cidr.js';
import { isClusterName } from '../../../lib/settings/cluster-name.js';

describe('parseDuration: what a timeout flag accepts', () => {
  it.each([
    ['90', 90], ['90s', 90], ['5m', 300], ['1h30m', 5400], ['1.5h', 5400], ['500ms', 0.5], ['2147483', 2147483], ['24d', 2073600],
  ])('%s → %d s', (text, seconds) => expect(parseDuration(text)).toBe(seconds));

  it.each([
    ['2147484', /longer than 2147483 s/], ['25d', /longer than/], ['0', /not a positive duration/], ['0s', /not a positive duration/],
    ['-1', /not a duration/], ['abc', /not a duration/], ['5 m', /not a duration/], ['5m30', /not a duration/], ['', /not a duration/], ['1e3', /not a duration/],
  ])('%j is refused', (text, why) => expect(parseDuration(text)).toEqual({ error: expect.stringMatching(why) }));
});

describe('parseCidr: IPv6 as well as IPv4', () => {
  it.each([
    ['2001:db8::/32', 6], ['fd00::/8', 6], ['::/0', 6], ['::1/128', 6], ['fd00::1:0/112', 6], ['::ffff:10.0.0.0/104', 6], ['10.0.0.0/8', 4], ['0.0.0.0/0', 4],
  ])('%s is a valid IPv%d CIDR', (text, family) => expect(parseCidr(text)).toMatchObject({ family }));

  it.each([
    ['fe80::1%eth0/128', 'has a zone index (%eth0)'],
    ['fe80::%25eth0/64', 'has a zone index'],
    ['2001:db8::1/32', 'did you mean 2001:db8::/32?'],
    ['2001:db8:0:0:1::/64', 'did you mean 2001:db8::/64?'],
    ['::/129', 'invalid prefix length (0–128)'],
    ['10.0.0.1/8', 'did you mean 10.0.0.0/8?'],
  ])('%s is refused: %s', (text, why) => {
    expect(parseCidr(text)).toEqual({ error: expect.stringContaining(why) });
  });

  it('bare addresses with a zone are not IPs for kaas', () => {
    expect(isIp('fe80::1%eth0')).toBe(false);
    expect(isIp('fe80::1')).toBe(true);
  });
});

describe('the one cluster-name rule', () => {
  it.each([
    ['demo', true], ['prod-1', true], ['a', true], ['a'.repeat(40), true],
    ['a'.repeat(41), false], ['1demo', false], ['Demo', false], ['demo-', false], ['-demo', false], ['de.mo', false], ['de_mo', false], ['..', false], ['', false],
  ])('%j → %s', (name, ok) => expect(isClusterName(name)).toBe(ok));
});
