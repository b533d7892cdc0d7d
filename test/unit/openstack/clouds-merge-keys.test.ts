import { readCloudsFiles } from '../../../lib/openstack/clouds-files.js';

/** Issue 23 (also wrong): `<<: *base` in clouds.yaml was dropped silently (region became "any"). */
describe('clouds.yaml merge keys', () => {
  it('<<: *base brings the base entry\'s keys, the entry\'s own keys win', () => {
    const text = [
      'x-base: &base',
      '  region_name: RegionTwo',
      '  interface: internal',
      'clouds:',
      '  prod:',
      '    <<: *base',
      '    interface: public',
      '    auth: {auth_url: "https://keystone.example/v3"}',
    ].join('\n');
    const files = readCloudsFiles({ environ: { OS_CLIENT_CONFIG_FILE: '/virtual/clouds.yaml' }, cwd: '/virtual', home: '/virtual', exists: (p) => p === '/virtual/clouds.yaml', readFile: () => text });
    expect(files.clouds.prod).toEqual({ region_name: 'RegionTwo', interface: 'public', auth: { auth_url: 'https://keystone.example/v3' } });
  });
});
