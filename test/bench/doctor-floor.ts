/**
 * The floor for `kaas doctor --cloud-only`: one Keystone token, then the same eight list calls
 * doctor makes (LBs, listeners, pools, monitors, FIPs, security groups, both quotas), all at once, with Node's own
 * fetch and nothing else. Prints the number of requests. Args: auth-url user password project.
 */
const [authUrl, user, password, project] = process.argv.slice(2);
const tok = await fetch(`${authUrl}/auth/tokens`, {
  method: 'POST', headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ auth: { identity: { methods: ['password'], password: { user: { name: user, domain: { id: 'default' }, password } } }, scope: { project: { name: project, domain: { id: 'default' } } } } }),
});
const token = tok.headers.get('x-subject-token')!;
const body = (await tok.json()) as { token: { project: { id: string } } };
const pid = body.token.project.id;
const o = 'http://127.0.0.1:9876';
const n = 'http://127.0.0.1:9696';
const urls = [
  `${o}/v2/lbaas/loadbalancers`, `${o}/v2/lbaas/listeners`, `${o}/v2/lbaas/pools`, `${o}/v2/lbaas/healthmonitors`,
  `${n}/v2.0/floatingips?fields=id&fields=floating_ip_address&fields=port_id&fields=fixed_ip_address&fields=description&fields=status`,
  `${n}/v2.0/security-groups?fields=id&fields=name&fields=description&fields=project_id&project_id=${pid}`,
  `${o}/v2/lbaas/quotas/${pid}`, `${n}/v2.0/quotas/${pid}/details`,
];
await Promise.all(urls.map(async (u) => {
  const r = await fetch(u, { headers: { 'X-Auth-Token': token, Accept: 'application/json' } });
  if (!r.ok) throw new Error(`${u}: HTTP ${r.status}`);
  await r.json();
}));
console.log(`requests ${1 + urls.length}`);
