import fs from 'node:fs';
import path from 'node:path';
import { findLeakedSecrets } from '../../support/printed.js';
import { envSecrets } from '../../support/peer.js';
import { tempDir } from '../../support/temp.js';

describe('the leak check over everything the suite printed', () => {
  it('finds a recorded secret and any Keystone fernet token in recorded output', () => {
    const dir = tempDir('kaas-printed-');
    fs.writeFileSync(path.join(dir, '1-1.secrets'), 'hunter2-secret\n');
    fs.writeFileSync(path.join(dir, '1-1.txt'), 'clean line ***');
    fs.writeFileSync(path.join(dir, '2-1.txt'), 'password: hunter2-secret');
    fs.writeFileSync(path.join(dir, '3-1.txt'), `X-Auth-Token: gAAAAAB${'x'.repeat(60)}`);
    expect(findLeakedSecrets(dir)).toEqual(['2-1.txt: hun…', '3-1.txt: a Keystone token']);
  });
});

describe('which values of a run\'s environment are taken for secrets', () => {
  it('values that look like secrets, never a file path (a random temp name may hold "pw")', () => {
    expect(envSecrets({
      OS_PASSWORD: 'demo-pass-1',
      APPCRED: 'app-secret-2',
      OS_CLIENT_CONFIG_FILE: '/tmp/kaas-jest-run-929-mGnQBW/test-file-integration_openstack_faults-E8NBpw/kaas-clouds-Z33fAo/clouds.yaml',
      OS_CLOUD: 'peer-demo',
    })).toEqual(['demo-pass-1', 'app-secret-2']);
  });
});
