import { findLeakedSecrets, printedCount } from '../../support/printed.js';
import { kaasOnPeer, peer } from '../../support/peer.js';

/**
 * Secrets never reach output: verbose runs (full HTTP traces) with every kind of credential, then
 * a grep of everything the suite recorded so far. Global teardown greps again once all test files
 * have run, so captures from other files are covered too.
 */
describe('secrets in printed output', () => {
  it.each(['peer-demo', 'peer-demo-appcred', 'peer-demo-appcred-name', 'peer-admin'])('kaas detect --verbose -o json --cloud %s prints no secret', (cloud) => {
    const r = kaasOnPeer(['detect', '--verbose', '-o', 'json', '--cloud', cloud]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('→ POST http://127.0.0.1:5000/v3/auth/tokens');
    expect(r.stderr).toContain('openstack: 4 HTTP requests');
    for (const s of peer().secrets) expect(r.stdout + r.stderr).not.toContain(s);
    expect(r.stdout + r.stderr).not.toMatch(/gAAAAA[A-Za-z0-9_-]{40,}/);
  });

  it('nothing recorded by the suite so far contains a secret it used', () => {
    expect(printedCount()).toBeGreaterThan(0);
    expect(findLeakedSecrets()).toEqual([]);
  });
});
