import { amphoraRegionCloud, parseEnvFile, realAmphorae } from '../../testbed/env.js';

describe('testbed.env readers', () => {
  it.each([
    ['no AMPHORA line (no-op amphorae)', 'DATAPATH=1\n', false, undefined],
    ['AMPHORA=0', 'AMPHORA=0\n', false, undefined],
    ['AMPHORA=1 (every region real)', 'AMPHORA=1\n', true, undefined],
    ['AMPHORA=region with its cloud', 'AMPHORA=region\nAMPHORA_CLOUD=peer-demo-appcred-amphora\n', true, 'peer-demo-appcred-amphora'],
    ['AMPHORA=region with another cloud', 'AMPHORA=region\nAMPHORA_CLOUD=other\n', true, 'other'],
  ])('%s: real amphorae %s, region cloud %s', (_n, text, real, cloud) => {
    const env = parseEnvFile(text);
    expect(realAmphorae(env)).toBe(real);
    expect(amphoraRegionCloud(env)).toBe(cloud);
  });

  it('AMPHORA=region without AMPHORA_CLOUD is an error that says how to fix it, not a guessed cloud', () => {
    expect(() => amphoraRegionCloud(parseEnvFile('AMPHORA=region\n'))).toThrow(/names no AMPHORA_CLOUD .*start the testbed again/);
  });
});
