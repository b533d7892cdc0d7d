import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { runKaas, tempDir } from '../support/cli.js';

/**
 * Issue 23, item 5: the 1 MiB cap was checked against stat's size (0 for /dev/zero and FIFOs) or after
 * reading everything, and cacert, --capabilities and SCS files had none; a directory did not name its path.
 */
describe('files the user names are read capped, whatever kind of file they are (built CLI)', () => {
  const dir = tempDir();
  fs.symlinkSync('/dev/zero', path.join(dir, 'zero.yaml'));
  fs.mkdirSync(path.join(dir, 'folder.yaml'));
  expect(spawnSync('mkfifo', [path.join(dir, 'fifo.yaml')]).status).toBe(0);
  const clouds = path.join(dir, 'clouds.yaml');
  fs.writeFileSync(clouds, 'clouds:\n  c:\n    auth: {auth_url: "http://127.0.0.1:9/v3", username: u, password: long-enough-pw, project_name: p, user_domain_name: D, project_domain_name: D}\n    cacert: /dev/zero\n');

  it.each([
    ['a settings file linked to /dev/zero', ['settings', 'validate', '--settings-dir', dir, '--env', 'zero'], {}, `${dir}/zero.yaml has more than 1048576 bytes; kaas reads at most 1048576 (1 MiB)`],
    ['a settings file that is a FIFO nobody writes into', ['settings', 'validate', '--settings-dir', dir, '--env', 'fifo'], {}, `cannot read ${dir}/fifo.yaml: it is a named pipe nobody writes into`],
    ['a settings path that is a directory', ['settings', 'validate', '--settings-dir', dir, '--env', 'folder'], {}, `cannot read ${dir}/folder.yaml: it is a directory, not a file`],
    ['clouds.yaml as /dev/zero', ['detect', '--cloud', 'c'], { OS_CLIENT_CONFIG_FILE: '/dev/zero' }, '/dev/zero has more than 1048576 bytes'],
    ['--capabilities /dev/zero', ['detect', '--capabilities', '/dev/zero'], {}, '--capabilities /dev/zero has more than 1048576 bytes'],
    ['a cacert of /dev/zero', ['detect', '--cloud', 'c'], { OS_CLIENT_CONFIG_FILE: clouds }, 'cacert /dev/zero of cloud "c" cannot be read: /dev/zero has more than 4194304 bytes'],
    ['settings import of /dev/zero', ['settings', 'import', '/dev/zero', '--cluster', 'demo', '--settings-dir', dir, '--env', 'imported'], {}, 'clusterctl.yaml /dev/zero has more than 1048576 bytes'],
    ['migrate-ingress --file /dev/zero', ['migrate-ingress', '--file', '/dev/zero'], {}, '/dev/zero has more than 16777216 bytes'],
  ])('%s: exit 2 naming the file', (_what, args, env, said) => {
    const r = runKaas(args as string[], { env: env as Record<string, string> });
    expect(r.stderr).toContain(`error: ${said}`);
    expect(r.code).toBe(2);
  });
});
