/**
 * The ingress-nginx annotations migrate-ingress knows: which it converts, and for the rest why not
 * (one sentence each, printed per Ingress). Facts from the ingress-nginx annotation reference and
 * the Gateway API v1.6 / Envoy Gateway v1.9 CRDs kaas bundles.
 */

/** The ingress-nginx annotation prefix. */
export const NGINX = 'nginx.ingress.kubernetes.io/';

/** Annotations (without the prefix) that kaas converts. */
export const CONVERTED = new Set([
  'rewrite-target', 'use-regex', 'ssl-redirect', 'force-ssl-redirect', 'backend-protocol',
  'canary', 'canary-weight', 'canary-weight-total', 'canary-by-header', 'canary-by-header-value', 'canary-by-header-pattern', 'canary-by-cookie',
  'enable-cors', 'cors-allow-origin', 'cors-allow-methods', 'cors-allow-headers', 'cors-expose-headers', 'cors-allow-credentials', 'cors-max-age',
  'proxy-body-size', 'proxy-connect-timeout', 'proxy-read-timeout', 'proxy-send-timeout',
  'permanent-redirect', 'permanent-redirect-code', 'temporal-redirect', 'temporal-redirect-code', 'app-root',
  'upstream-vhost', 'x-forwarded-prefix', 'server-alias',
]);

/** Why a known annotation is not converted (access protection: auth-*, IP lists, satisfy are decided in security.ts). */
const NOT_CONVERTED: Record<string, string> = {
  'configuration-snippet': 'raw nginx configuration: no Envoy equivalent; translate what it does by hand (often headers: a RequestHeaderModifier/ResponseHeaderModifier filter)',
  'server-snippet': 'raw nginx configuration: no Envoy equivalent; translate what it does by hand',
  'stream-snippet': 'raw nginx configuration: no Envoy equivalent',
  'affinity': 'session affinity: a BackendTrafficPolicy loadBalancer.consistentHash (cookie) comes close, but is not generated',
  'affinity-mode': 'session affinity: see affinity',
  'session-cookie-name': 'session affinity: see affinity',
  'session-cookie-path': 'session affinity: see affinity',
  'session-cookie-max-age': 'session affinity: see affinity',
  'session-cookie-expires': 'session affinity: see affinity',
  'session-cookie-samesite': 'session affinity: see affinity',
  'upstream-hash-by': 'consistent hashing: a BackendTrafficPolicy loadBalancer.consistentHash comes close, but is not generated',
  'load-balance': 'the balancing algorithm: a BackendTrafficPolicy loadBalancer.type, not generated (ewma has no equivalent)',
  'limit-rps': 'rate limiting: a BackendTrafficPolicy rateLimit (local) counts differently from nginx\'s leaky bucket; not generated',
  'limit-rpm': 'rate limiting: see limit-rps',
  'limit-connections': 'connection limits: no per-route equivalent (circuitBreaker limits per backend)',
  'limit-burst-multiplier': 'rate limiting: see limit-rps',
  'limit-whitelist': 'rate limiting: see limit-rps',
  'limit-allowlist': 'rate limiting: see limit-rps',
  'ssl-passthrough': 'TLS passthrough needs a TLS listener in Passthrough mode and a TLSRoute, not an HTTPRoute; not generated',
  'proxy-buffering': 'response buffering: Envoy streams; no equivalent',
  'proxy-buffer-size': 'nginx buffer sizes: no equivalent',
  'proxy-buffers-number': 'nginx buffer sizes: no equivalent',
  'client-body-buffer-size': 'nginx buffer sizes: no equivalent (proxy-body-size is converted)',
  'proxy-request-buffering': 'request buffering: a BackendTrafficPolicy requestBuffer buffers whole requests; not generated',
  'proxy-next-upstream': 'retries: a BackendTrafficPolicy retry (or HTTPRoute retry) has other triggers; not generated',
  'proxy-next-upstream-tries': 'retries: see proxy-next-upstream',
  'proxy-next-upstream-timeout': 'retries: see proxy-next-upstream',
  'proxy-redirect-from': 'Location header rewriting: no equivalent',
  'proxy-redirect-to': 'Location header rewriting: no equivalent',
  'proxy-http-version': 'Envoy picks the upstream HTTP version from the Service port\'s appProtocol',
  'proxy-ssl-secret': 'backend TLS: a BackendTLSPolicy with caCertificateRefs, not generated',
  'proxy-ssl-verify': 'backend TLS: a BackendTLSPolicy, not generated',
  'proxy-ssl-name': 'backend TLS: BackendTLSPolicy validation.hostname, not generated',
  'proxy-ssl-server-name': 'backend TLS: BackendTLSPolicy validation.hostname, not generated',
  'proxy-ssl-protocols': 'backend TLS versions: not generated',
  'proxy-ssl-ciphers': 'backend TLS ciphers: not generated',
  'custom-http-errors': 'error pages: a BackendTrafficPolicy responseOverride comes close, not generated',
  'default-backend': 'per-Ingress default backend for errors: no equivalent',
  'service-upstream': 'Envoy Gateway routes to endpoints; routing to the Service IP needs a Backend resource, not generated',
  'enable-access-log': 'access logs are configured on the EnvoyProxy (telemetry.accessLog) for the whole Gateway',
  'enable-opentelemetry': 'tracing is configured on the EnvoyProxy (telemetry.tracing) for the whole Gateway',
  'enable-modsecurity': 'ModSecurity WAF: no equivalent in Envoy Gateway',
  'enable-owasp-core-rules': 'ModSecurity WAF: no equivalent in Envoy Gateway',
  'modsecurity-snippet': 'ModSecurity WAF: no equivalent in Envoy Gateway',
  'mirror-target': 'request mirroring: a RequestMirror filter needs a Service backend, not a URL; not generated',
  'mirror-uri': 'request mirroring: see mirror-target',
  'mirror-request-body': 'request mirroring: see mirror-target',
  'from-to-www-redirect': 'www redirect: needs a second hostname and a RequestRedirect route; not generated',
  'preserve-trailing-slash': 'no equivalent',
  'ssl-ciphers': 'TLS ciphers are set per listener in a ClientTrafficPolicy (tls.ciphers), not per route',
  'ssl-prefer-server-ciphers': 'TLS settings are per listener in a ClientTrafficPolicy, not per route',
  'http2-push-preload': 'HTTP/2 push: removed from browsers; no equivalent',
  'global-rate-limit': 'global rate limiting: Envoy Gateway needs its rate-limit service; not generated',
  'proxy-max-temp-file-size': 'nginx buffer files: no equivalent',
  'connection-proxy-header': 'the Connection header: Envoy manages it; no equivalent',
  'custom-headers': 'headers from a ConfigMap: write a RequestHeaderModifier filter by hand',
  'opentracing': 'tracing is configured on the EnvoyProxy (telemetry.tracing)',
  'x-forwarded-for': 'no equivalent',
  'server-tokens': 'no equivalent',
};

/** Why an annotation is not converted (known ones with their reason; anything else generically). */
export function notConvertedReason(annotation: string): string | undefined {
  if (annotation === 'kubectl.kubernetes.io/last-applied-configuration' || annotation === 'kubernetes.io/ingress.class') return undefined;
  if (annotation.startsWith('cert-manager.io/') || annotation.startsWith('acme.cert-manager.io/')) {
    return 'cert-manager reads this from Ingress objects; for the gateway put it on the Gateway envoy-gateway-system/kaas (cert-manager\'s Gateway support) or create the Certificate yourself';
  }
  if (annotation.startsWith('external-dns.alpha.kubernetes.io/')) {
    return 'external-dns reads HTTPRoutes only with --source=gateway-httproute; copy the annotation to the HTTPRoute after checking your external-dns sources';
  }
  if (!annotation.startsWith(NGINX)) return 'not an ingress-nginx annotation: not carried over to the Gateway API objects';
  const key = annotation.slice(NGINX.length);
  if (CONVERTED.has(key)) return undefined;
  return NOT_CONVERTED[key] ?? 'kaas has no Gateway API or Envoy Gateway translation for this annotation; review it by hand';
}
