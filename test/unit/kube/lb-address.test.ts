import { lbAddress } from '../../../lib/kube/lb-address.js';

/** A Service answer whose status.loadBalancer is `lb`. */
const svc = (lb: unknown) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'echo-cluster' }, status: { loadBalancer: lb } });
const REF = { namespace: 'kaas-check-lb', name: 'echo-cluster' };

describe('lbAddress: the address of a check-lb Service, from an answer of any shape', () => {
  it.each([
    ['an IPv4 address', svc({ ingress: [{ ip: '203.0.113.7' }] }), '203.0.113.7'],
    ['an IPv6 address', svc({ ingress: [{ ip: '2001:db8::7' }] }), '2001:db8::7'],
    ['a hostname', svc({ ingress: [{ hostname: 'lb.example.org' }] }), 'lb.example.org'],
    ['no address yet', svc({}), undefined],
    ['no status at all', { kind: 'Service', metadata: { name: 'echo-cluster' } }, undefined],
    ['an ip and a hostname: the ip', svc({ ingress: [{ ip: '203.0.113.7', hostname: 'lb.example.org' }] }), '203.0.113.7'],
    ['an empty ingress list', svc({ ingress: [] }), undefined],
    ['the Service absent (NotFound)', undefined, undefined],
  ])('%s', (_, answer, want) => {
    expect(lbAddress(answer, REF)).toBe(want);
  });

  it.each([
    ['ip a number', svc({ ingress: [{ ip: 7 }] }), 'status.loadBalancer.ingress[0].ip is 7 (a number), not an IP address'],
    ['ip an object', svc({ ingress: [{ ip: { a: 1 } }] }), 'status.loadBalancer.ingress[0].ip is {"a":1} (an object), not an IP address'],
    ['ip not an address (a URL would go elsewhere)', svc({ ingress: [{ ip: '10.0.0.1@evil.example' }] }), 'ip is "10.0.0.1@evil.example" (a string), not an IP address'],
    ['hostname with an escape sequence', svc({ ingress: [{ hostname: 'a\u001b[2J' }] }), 'hostname is "a\\u001b[2J" (a string), not a DNS name'],
    ['ingress entry null', svc({ ingress: [null] }), 'status.loadBalancer.ingress[0] is null, not an object'],
    ['ingress an object', svc({ ingress: { ip: '1.2.3.4' } }), 'status.loadBalancer.ingress is {"ip":"1.2.3.4"} (an object), not a list'],
    ['loadBalancer a string', svc('up'), 'status.loadBalancer is "up" (a string), not an object'],
    ['the answer a list', [1], 'the answer is a list, not an object'],
    ['status a string', { metadata: { name: 'echo-cluster' }, status: 'up' }, 'the answer (echo-cluster) has status that is a string, not an object'],
    ['a valid ip beside a hostname that is no DNS name', svc({ ingress: [{ ip: '203.0.113.7', hostname: 'x/y' }] }), 'hostname is "x/y" (a string), not a DNS name'],
  ])('%s: an OperationError naming the field and the value, with how to look', (_, answer, said) => {
    let err: unknown;
    try {
      lbAddress(answer, REF);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ exitCode: 1, message: expect.stringContaining(said), hint: expect.stringContaining('kubectl get service -n kaas-check-lb echo-cluster -o yaml') });
    expect((err as Error).message).toMatch(/^Service kaas-check-lb\/echo-cluster: /);
  });
});
